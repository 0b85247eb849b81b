"""In-memory note storage."""
import itertools
from datetime import datetime, timezone

_notes = {}
_ids = itertools.count(1)


def _now():
    return datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")


def all_notes():
    return [_notes[k] for k in sorted(_notes)]


def get(pk):
    return _notes.get(pk)


def add(data):
    stamp = _now()
    note = {"id": next(_ids), "title": data["title"], "content": data.get("content", ""),
            "tags": data.get("tags", []), "created_at": stamp, "updated_at": stamp}
    _notes[note["id"]] = note
    return note


def change(pk, data):
    note = _notes[pk]
    note.update(data)
    note["updated_at"] = _now()
    return note


def remove(pk):
    return _notes.pop(pk, None) is not None
