from ..core import config
from ..core.errors import validation_error
from ..models import store
from ..utils.common import iso, new_id, now, require_string

FIELDS = ("id", "user_id", "content_id", "content_type", "action", "created_at", "updated_at")
HISTORY_FIELDS = ("id", "content_id", "content_type", "action", "created_at")


def act(user_id: str, data: dict) -> dict:
    errors = {}
    content_id = require_string(data, "content_id", errors)
    content_type = require_string(data, "content_type", errors, config.CONTENT_TYPES)
    action = require_string(data, "action", errors, config.LIKE_ACTIONS)
    if errors:
        raise validation_error(errors)
    ts = iso(now())
    record = {"id": new_id(), "user_id": user_id, "content_id": content_id, "content_type": content_type,
              "action": action, "created_at": ts, "updated_at": ts}
    with store.like_state_lock:
        store.likes.add(record)
        store.like_state[(user_id, content_id)] = record
    return store.public(record, FIELDS)


def stats(content_id: str, user_id=None) -> dict:
    with store.like_state_lock:
        current = [r for (uid, cid), r in store.like_state.items() if cid == content_id]
        mine = store.like_state.get((user_id, content_id)) if user_id else None
    latest = max(current, key=lambda r: r["_seq"]) if current else None
    return {
        "content_id": content_id,
        "content_type": latest["content_type"] if latest else None,
        "total_likes": sum(1 for r in current if r["action"] == "like"),
        "total_unlikes": sum(1 for r in current if r["action"] == "unlike"),
        "user_action": mine["action"] if mine else None,
    }


def history_for(user_id: str, content_type=None) -> list:
    return [store.public(r, HISTORY_FIELDS) for r in store.likes.find(
        lambda r: r["user_id"] == user_id and (content_type is None or r["content_type"] == content_type))]
