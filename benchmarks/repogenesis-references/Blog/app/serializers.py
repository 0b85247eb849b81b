def iso(dt):
    return dt.isoformat() + "Z" if dt is not None else None


def user_brief(user):
    return {"id": user.id, "username": user.username} if user else None


def category_brief(category):
    return {"id": category.id, "name": category.name} if category else None


def post_full(post):
    """Create/update response."""
    return {
        "id": post.id,
        "title": post.title,
        "content": post.content,
        "excerpt": post.excerpt or "",
        "author_id": post.author_id,
        "category_id": post.category_id,
        "tags": [t.name for t in post.tags],
        "status": post.status,
        "created_at": iso(post.created_at),
        "updated_at": iso(post.updated_at),
    }


def post_list_item(post):
    return {
        "id": post.id,
        "title": post.title,
        "excerpt": post.excerpt or "",
        "author": user_brief(post.author),
        "category": category_brief(post.category),
        "tags": [t.name for t in post.tags],
        "status": post.status,
        "created_at": iso(post.created_at),
        "updated_at": iso(post.updated_at),
    }


def post_detail(post):
    data = post_list_item(post)
    data["content"] = post.content
    data["author_id"] = post.author_id
    data["category_id"] = post.category_id
    return data


def comment_out(comment):
    return {
        "id": comment.id,
        "content": comment.content,
        "author": user_brief(comment.author),
        "post_id": comment.post_id,
        "parent_id": comment.parent_id,
        "created_at": iso(comment.created_at),
    }
