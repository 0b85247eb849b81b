"""Thread-safe in-memory storage for favorites, likes and history records."""
import itertools
import threading


class Collection:
    def __init__(self):
        self.lock = threading.RLock()
        self._items = {}
        self._seq = itertools.count(1)

    def add(self, record: dict) -> dict:
        with self.lock:
            record["_seq"] = next(self._seq)
            self._items[record["id"]] = record
            return record

    def get(self, record_id):
        with self.lock:
            return self._items.get(record_id)

    def remove(self, record_id) -> bool:
        with self.lock:
            return self._items.pop(record_id, None) is not None

    def find(self, predicate=lambda r: True, newest_first=True):
        with self.lock:
            found = [r for r in self._items.values() if predicate(r)]
        found.sort(key=lambda r: r["_seq"], reverse=newest_first)
        return found


favorites = Collection()
likes = Collection()          # every like/unlike action (the user's like history)
like_state = {}               # (user_id, content_id) -> latest action record
like_state_lock = threading.RLock()
history = Collection()


def public(record: dict, fields) -> dict:
    return {f: record.get(f) for f in fields}
