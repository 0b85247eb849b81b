"""SQLite persistence for users."""
import sqlite3
import threading
from datetime import datetime, timezone

from . import config

_lock = threading.RLock()
_conn = sqlite3.connect(config.DATABASE_URL, check_same_thread=False)
_conn.row_factory = sqlite3.Row

SCHEMA_VERSION = 1
MIGRATIONS = {
    1: """
    CREATE TABLE IF NOT EXISTS users (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        username TEXT NOT NULL UNIQUE COLLATE NOCASE,
        email TEXT NOT NULL UNIQUE COLLATE NOCASE,
        password_hash TEXT NOT NULL,
        full_name TEXT NOT NULL,
        role TEXT NOT NULL DEFAULT 'user',
        phone TEXT,
        status TEXT NOT NULL DEFAULT 'active',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    """,
}

PUBLIC_FIELDS = ("id", "username", "email", "full_name", "role", "phone", "status", "created_at", "updated_at")


def migrate():
    with _lock:
        current = _conn.execute("PRAGMA user_version").fetchone()[0]
        for version in range(current + 1, SCHEMA_VERSION + 1):
            _conn.executescript(MIGRATIONS[version])
            _conn.execute(f"PRAGMA user_version = {version}")
        _conn.commit()


def now_iso():
    return datetime.now(timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z")


def ping():
    try:
        with _lock:
            _conn.execute("SELECT 1").fetchone()
        return True
    except sqlite3.Error:
        return False


def public(row):
    return {k: row[k] for k in PUBLIC_FIELDS} if row is not None else None


def get_user(user_id):
    with _lock:
        return _conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()


def get_by_username(username):
    with _lock:
        return _conn.execute("SELECT * FROM users WHERE username = ?", (username,)).fetchone()


def conflicts(username=None, email=None, exclude_id=None):
    """Return the list of fields that already belong to another user."""
    found = []
    with _lock:
        if username is not None:
            row = _conn.execute("SELECT id FROM users WHERE username = ? AND id IS NOT ?",
                                (username, exclude_id)).fetchone()
            if row:
                found.append("username")
        if email is not None:
            row = _conn.execute("SELECT id FROM users WHERE email = ? AND id IS NOT ?",
                                (email, exclude_id)).fetchone()
            if row:
                found.append("email")
    return found


def create_user(fields, password_hash):
    ts = now_iso()
    with _lock:
        cur = _conn.execute(
            "INSERT INTO users (username, email, password_hash, full_name, role, phone, status, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, 'active', ?, ?)",
            (fields["username"], fields["email"], password_hash, fields["full_name"],
             fields.get("role", "user"), fields.get("phone"), ts, ts),
        )
        _conn.commit()
        return get_user(cur.lastrowid)


def update_user(user_id, fields):
    if not fields:
        return get_user(user_id)
    fields = dict(fields)
    fields["updated_at"] = now_iso()
    assignments = ", ".join(f"{k} = ?" for k in fields)
    with _lock:
        _conn.execute(f"UPDATE users SET {assignments} WHERE id = ?", (*fields.values(), user_id))
        _conn.commit()
        return get_user(user_id)


def set_password(user_id, password_hash):
    with _lock:
        _conn.execute("UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?",
                      (password_hash, now_iso(), user_id))
        _conn.commit()


def delete_user(user_id):
    with _lock:
        cur = _conn.execute("DELETE FROM users WHERE id = ?", (user_id,))
        _conn.commit()
        return cur.rowcount > 0


def list_users(page, limit, status=None, role=None, search=None):
    clauses, params = [], []
    if status:
        clauses.append("status = ?")
        params.append(status)
    if role:
        clauses.append("role = ?")
        params.append(role)
    if search:
        pattern = "%" + search.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        clauses.append("(username LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\' OR full_name LIKE ? ESCAPE '\\')")
        params += [pattern, pattern, pattern]
    where = (" WHERE " + " AND ".join(clauses)) if clauses else ""
    with _lock:
        total = _conn.execute(f"SELECT COUNT(*) FROM users{where}", params).fetchone()[0]
        rows = _conn.execute(f"SELECT * FROM users{where} ORDER BY id LIMIT ? OFFSET ?",
                             (*params, limit, (page - 1) * limit)).fetchall()
    return [public(r) for r in rows], total
