"""Metadata (SQLite) and blob storage on disk, organised by upload date."""
import json
import os
import sqlite3
import threading

SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    id TEXT PRIMARY KEY,
    username TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    is_admin INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS files (
    id TEXT PRIMARY KEY,
    filename TEXT NOT NULL,
    size INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    category TEXT NOT NULL,
    upload_time TEXT NOT NULL,
    uploader TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    tags TEXT NOT NULL DEFAULT '[]',
    checksum TEXT NOT NULL,
    path TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS files_upload_time ON files(upload_time);
CREATE INDEX IF NOT EXISTS files_uploader ON files(uploader);
"""


def _escape_like(text):
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


class Store:
    def __init__(self, data_dir):
        self.data_dir = data_dir
        self.blob_dir = os.path.join(data_dir, "uploads")
        os.makedirs(self.blob_dir, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(os.path.join(data_dir, "file_relay.sqlite3"), check_same_thread=False)
        self._db.row_factory = sqlite3.Row
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(SCHEMA)
            self._db.commit()

    # users -----------------------------------------------------------------
    def create_user(self, user):
        with self._lock:
            try:
                self._db.execute(
                    "INSERT INTO users (id, username, password_hash, is_admin, created_at) VALUES (?, ?, ?, ?, ?)",
                    (user["id"], user["username"], user["password_hash"], int(user["is_admin"]), user["created_at"]),
                )
                self._db.commit()
            except sqlite3.IntegrityError:
                self._db.rollback()
                return False
        return True

    def get_user(self, username):
        with self._lock:
            row = self._db.execute("SELECT * FROM users WHERE username = ?", (username,)).fetchone()
        return dict(row) if row else None

    def get_user_by_id(self, user_id):
        with self._lock:
            row = self._db.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
        return dict(row) if row else None

    # files -----------------------------------------------------------------
    @staticmethod
    def _file(row):
        if row is None:
            return None
        record = dict(row)
        record["tags"] = json.loads(record["tags"])
        return record

    def add_file(self, record):
        with self._lock:
            self._db.execute(
                "INSERT INTO files (id, filename, size, content_type, category, upload_time, uploader, description,"
                " tags, checksum, path) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (record["id"], record["filename"], record["size"], record["content_type"], record["category"],
                 record["upload_time"], record["uploader"], record["description"], json.dumps(record["tags"]),
                 record["checksum"], record["path"]),
            )
            self._db.commit()

    def get_file(self, file_id):
        with self._lock:
            row = self._db.execute("SELECT * FROM files WHERE id = ?", (file_id,)).fetchone()
        return self._file(row)

    def update_file(self, file_id, description, tags):
        with self._lock:
            self._db.execute("UPDATE files SET description = ?, tags = ? WHERE id = ?",
                             (description, json.dumps(tags), file_id))
            self._db.commit()
        return self.get_file(file_id)

    def delete_file(self, file_id):
        """Remove the record; returns it (or None when it did not exist)."""
        with self._lock:
            record = self.get_file(file_id)
            if record is None:
                return None
            self._db.execute("DELETE FROM files WHERE id = ?", (file_id,))
            self._db.commit()
        return record

    def list_files(self, page, page_size, category=None, uploader=None):
        where, args = [], []
        if category:
            where.append("category = ?")
            args.append(category)
        if uploader:
            where.append("uploader = ?")
            args.append(uploader)
        clause = (" WHERE " + " AND ".join(where)) if where else ""
        return self._page(clause, args, page, page_size)

    def search_files(self, query, page, page_size):
        pattern = "%" + _escape_like(query.lower()) + "%"
        clause = " WHERE lower(filename) LIKE ? ESCAPE '\\' OR lower(tags) LIKE ? ESCAPE '\\'"
        return self._page(clause, [pattern, pattern], page, page_size)

    def _page(self, clause, args, page, page_size):
        with self._lock:
            total = self._db.execute("SELECT COUNT(*) FROM files" + clause, args).fetchone()[0]
            rows = self._db.execute(
                "SELECT * FROM files" + clause + " ORDER BY upload_time DESC, rowid DESC LIMIT ? OFFSET ?",
                args + [page_size, (page - 1) * page_size],
            ).fetchall()
        return [self._file(r) for r in rows], total
