from ..core import config
from ..core.errors import ApiError, validation_error
from ..models import store
from ..utils.common import iso, new_id, now, require_string
from .content import content_info

FIELDS = ("id", "user_id", "content_id", "content_type", "category", "created_at", "updated_at")
LIST_FIELDS = ("id", "content_id", "content_type", "category", "created_at")


def add(user_id: str, data: dict) -> dict:
    errors = {}
    content_id = require_string(data, "content_id", errors)
    content_type = require_string(data, "content_type", errors, config.CONTENT_TYPES)
    category = require_string(data, "category", errors, required=False)
    if category is not None and len(category) > 100:
        errors["category"] = "must be at most 100 characters"
    if errors:
        raise validation_error(errors)
    with store.favorites.lock:
        existing = store.favorites.find(lambda r: r["user_id"] == user_id and r["content_id"] == content_id
                                        and r["content_type"] == content_type)
        if existing:
            raise ApiError(409, "Content is already in favorites", {"favorite_id": existing[0]["id"]},
                           error="already_favorited")
        ts = iso(now())
        record = store.favorites.add({
            "id": new_id(), "user_id": user_id, "content_id": content_id, "content_type": content_type,
            "category": category, "created_at": ts, "updated_at": ts,
        })
    return store.public(record, FIELDS)


def list_for(user_id: str, content_type=None, category=None) -> list:
    def match(r):
        return (r["user_id"] == user_id
                and (content_type is None or r["content_type"] == content_type)
                and (category is None or r["category"] == category))

    items = []
    for r in store.favorites.find(match):
        item = store.public(r, LIST_FIELDS)
        item["content_info"] = content_info(r["content_id"], r["content_type"])
        items.append(item)
    return items


def delete(user_id: str, favorite_id: str) -> None:
    with store.favorites.lock:
        record = store.favorites.get(favorite_id)
        if record is None or record["user_id"] != user_id:
            raise ApiError(404, "Favorite not found")
        store.favorites.remove(favorite_id)
