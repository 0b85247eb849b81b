"""SQLite persistence for tasks and executions."""
import json
import os
import sqlite3
import threading

SCHEMA = """
CREATE TABLE IF NOT EXISTS tasks (
    task_id     TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    task_type   TEXT NOT NULL,
    schedule    TEXT NOT NULL,
    config      TEXT NOT NULL DEFAULT '{}',
    enabled     INTEGER NOT NULL DEFAULT 1,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    last_run    TEXT,
    seq         INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS executions (
    execution_id TEXT PRIMARY KEY,
    task_id      TEXT NOT NULL,
    status       TEXT NOT NULL,
    trigger      TEXT NOT NULL DEFAULT 'manual',
    started_at   TEXT NOT NULL,
    completed_at TEXT,
    result       TEXT,
    error        TEXT,
    seq          INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_exec_task ON executions(task_id, seq);
"""

TASK_COLUMNS = ("task_id", "name", "description", "task_type", "schedule", "config", "enabled",
                "created_at", "updated_at", "last_run")
EXEC_COLUMNS = ("execution_id", "task_id", "status", "trigger", "started_at", "completed_at", "result", "error")


class Store:
    def __init__(self, path):
        if path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        self._lock = threading.RLock()
        with self._lock:
            self._db.executescript(SCHEMA)
            # Executions left "running" by a previous process can never finish.
            self._db.execute("UPDATE executions SET status='failed', error='interrupted by service restart' "
                             "WHERE status='running'")

    # ---- helpers
    def _next_seq(self, table):
        row = self._db.execute(f"SELECT COALESCE(MAX(seq), 0) + 1 FROM {table}").fetchone()
        return row[0]

    @staticmethod
    def _task(row):
        if row is None:
            return None
        d = {k: row[k] for k in TASK_COLUMNS}
        d["config"] = json.loads(d["config"] or "{}")
        d["enabled"] = bool(d["enabled"])
        return d

    @staticmethod
    def _execution(row):
        if row is None:
            return None
        d = {k: row[k] for k in EXEC_COLUMNS}
        d["result"] = json.loads(d["result"]) if d["result"] is not None else None
        return d

    # ---- tasks
    def insert_task(self, task):
        with self._lock:
            self._db.execute(
                "INSERT INTO tasks (task_id, name, description, task_type, schedule, config, enabled, "
                "created_at, updated_at, last_run, seq) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (task["task_id"], task["name"], task["description"], task["task_type"], task["schedule"],
                 json.dumps(task["config"]), int(task["enabled"]), task["created_at"], task["updated_at"],
                 task.get("last_run"), self._next_seq("tasks")))
        return self.get_task(task["task_id"])

    def get_task(self, task_id):
        with self._lock:
            return self._task(self._db.execute("SELECT * FROM tasks WHERE task_id=?", (task_id,)).fetchone())

    def list_tasks(self, task_type=None, enabled=None, offset=0, limit=None):
        where, args = [], []
        if task_type is not None:
            where.append("task_type=?")
            args.append(task_type)
        if enabled is not None:
            where.append("enabled=?")
            args.append(int(enabled))
        clause = (" WHERE " + " AND ".join(where)) if where else ""
        with self._lock:
            total = self._db.execute(f"SELECT COUNT(*) FROM tasks{clause}", args).fetchone()[0]
            sql = f"SELECT * FROM tasks{clause} ORDER BY seq"
            page_args = list(args)
            if limit is not None:
                sql += " LIMIT ? OFFSET ?"
                page_args += [limit, offset]
            rows = self._db.execute(sql, page_args).fetchall()
        return [self._task(r) for r in rows], total

    def update_task(self, task_id, fields):
        if not fields:
            return self.get_task(task_id)
        cols, args = [], []
        for k, v in fields.items():
            if k == "config":
                v = json.dumps(v)
            elif k == "enabled":
                v = int(v)
            cols.append(f"{k}=?")
            args.append(v)
        args.append(task_id)
        with self._lock:
            self._db.execute(f"UPDATE tasks SET {', '.join(cols)} WHERE task_id=?", args)
        return self.get_task(task_id)

    def delete_task(self, task_id):
        with self._lock:
            cur = self._db.execute("DELETE FROM tasks WHERE task_id=?", (task_id,))
            self._db.execute("DELETE FROM executions WHERE task_id=?", (task_id,))
            return cur.rowcount > 0

    # ---- executions
    def insert_execution(self, execution):
        with self._lock:
            self._db.execute(
                "INSERT INTO executions (execution_id, task_id, status, trigger, started_at, completed_at, "
                "result, error, seq) VALUES (?,?,?,?,?,?,?,?,?)",
                (execution["execution_id"], execution["task_id"], execution["status"], execution["trigger"],
                 execution["started_at"], None, None, None, self._next_seq("executions")))
            self._db.execute("UPDATE tasks SET last_run=? WHERE task_id=?",
                             (execution["started_at"], execution["task_id"]))

    def finish_execution(self, execution_id, status, completed_at, result=None, error=None):
        with self._lock:
            self._db.execute(
                "UPDATE executions SET status=?, completed_at=?, result=?, error=? WHERE execution_id=?",
                (status, completed_at, json.dumps(result) if result is not None else None, error, execution_id))

    def list_executions(self, task_id, limit):
        with self._lock:
            rows = self._db.execute(
                "SELECT * FROM executions WHERE task_id=? ORDER BY seq DESC LIMIT ?", (task_id, limit)).fetchall()
        return [self._execution(r) for r in rows]

    def stats(self):
        with self._lock:
            total_tasks = self._db.execute("SELECT COUNT(*) FROM tasks").fetchone()[0]
            active = self._db.execute("SELECT COUNT(*) FROM tasks WHERE enabled=1").fetchone()[0]
            total_exec = self._db.execute("SELECT COUNT(*) FROM executions").fetchone()[0]
            ok = self._db.execute("SELECT COUNT(*) FROM executions WHERE status='completed'").fetchone()[0]
            failed = self._db.execute("SELECT COUNT(*) FROM executions WHERE status='failed'").fetchone()[0]
        return {"total_tasks": total_tasks, "active_tasks": active, "total_executions": total_exec,
                "successful_executions": ok, "failed_executions": failed}
