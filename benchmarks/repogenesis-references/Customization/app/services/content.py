"""Content catalogue lookup used to enrich list responses with `content_info`.

No catalogue service is configured, so descriptive information is derived from the content
identifier and type.
"""


def content_info(content_id, content_type, with_thumbnail=True):
    if not content_id:
        return {"title": "", "summary": "", **({"thumbnail": ""} if with_thumbnail else {})}
    kind = (content_type or "content").capitalize()
    info = {
        "title": f"{kind} {content_id}",
        "summary": f"Summary of {content_type or 'content'} {content_id}",
    }
    if with_thumbnail:
        info["thumbnail"] = f"/static/thumbnails/{content_type or 'content'}/{content_id}.jpg"
    return info
