from ..core import config
from ..core.errors import ApiError, validation_error
from ..models import store
from ..utils.common import iso, new_id, now, require_string
from .content import content_info

FIELDS = ("id", "user_id", "action", "content_id", "content_type", "metadata", "session_id", "created_at",
          "ip_address", "user_agent")
LIST_FIELDS = ("id", "action", "content_id", "content_type", "metadata", "session_id", "created_at")


def record(user_id: str, data: dict, ip_address, user_agent) -> dict:
    errors = {}
    action = require_string(data, "action", errors, config.HISTORY_ACTIONS)
    content_id = require_string(data, "content_id", errors, required=False)
    content_type = require_string(data, "content_type", errors, required=False)
    session_id = require_string(data, "session_id", errors, required=False)
    metadata = data.get("metadata")
    if metadata is not None and not isinstance(metadata, dict):
        errors["metadata"] = "must be an object"
    if errors:
        raise validation_error(errors)
    created = now()
    rec = store.history.add({
        # Optional string fields are always strings in responses ("" when not provided).
        "id": new_id(), "user_id": user_id, "action": action, "content_id": content_id or "",
        "content_type": content_type or "", "metadata": metadata if metadata is not None else {},
        "session_id": session_id or "", "created_at": iso(created), "_created": created,
        "ip_address": ip_address or "", "user_agent": user_agent or "",
    })
    return store.public(rec, FIELDS)


def list_for(user_id, action=None, content_type=None, start=None, end=None, session_id=None) -> list:
    def match(r):
        # content_id / content_type / session_id are stored as "" when absent, so filters compare directly.
        return (r["user_id"] == user_id
                and (action is None or r["action"] == action)
                and (content_type is None or r["content_type"] == content_type)
                and (session_id is None or r["session_id"] == session_id)
                and (start is None or r["_created"] >= start)
                and (end is None or r["_created"] <= end))

    items = []
    for r in store.history.find(match):
        item = store.public(r, LIST_FIELDS)
        item["content_info"] = content_info(r["content_id"], r["content_type"], with_thumbnail=False)
        items.append(item)
    return items


def delete(user_id: str, history_id: str) -> None:
    with store.history.lock:
        rec = store.history.get(history_id)
        if rec is None or rec["user_id"] != user_id:
            raise ApiError(404, "History record not found")
        store.history.remove(history_id)


def clear(user_id: str) -> int:
    with store.history.lock:
        mine = store.history.find(lambda r: r["user_id"] == user_id)
        for r in mine:
            store.history.remove(r["id"])
    return len(mine)
