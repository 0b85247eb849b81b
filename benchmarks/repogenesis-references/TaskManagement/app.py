"""Task Management microservice: task CRUD with status and priority management (Flask + SQLite)."""
import json
import logging
import os
import re
import sqlite3
import threading
from datetime import date, datetime, timezone

from flask import Flask, jsonify, request

VERSION = "1.0.0"
BASE = "/api/v1"
PRIORITIES = ("low", "medium", "high")
STATUSES = ("pending", "in_progress", "completed")
TITLE_MAX = 200
DESCRIPTION_MAX = 1000
DEFAULT_LIMIT = 10
MAX_LIMIT = 100
HERE = os.path.dirname(os.path.abspath(__file__))

log = logging.getLogger("task_service")

ISO_RE = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})"
    r"(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}:?\d{2})?)?$"
)


class ApiError(Exception):
    def __init__(self, status, code, message, details=None):
        super().__init__(message)
        self.status, self.code, self.message, self.details = status, code, message, details


def validation_error(message, field=None, **extra):
    details = {"field": field, **extra} if field else (extra or None)
    return ApiError(422, "validation_error", message, details)


def now_iso():
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def valid_iso8601(value):
    """True if value is an ISO 8601 date (YYYY-MM-DD) or date-time that denotes a real calendar instant."""
    m = ISO_RE.match(value)
    if not m:
        return False
    y, mo, d, hh, mm, ss, _frac, tz = m.groups()
    try:
        date(int(y), int(mo), int(d))
        if hh is not None:
            if int(hh) > 23 or int(mm) > 59 or (ss is not None and int(ss) > 59):
                return False
        if tz and tz not in ("Z", "z"):
            digits = tz[1:].replace(":", "")
            if int(digits[:2]) > 23 or int(digits[2:]) > 59:
                return False
    except ValueError:
        return False
    return True


# --------------------------------------------------------------------------- storage
def database_path():
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("sqlite:///"):
        return url[len("sqlite:///"):] or ":memory:"
    if url:
        raise SystemExit(f"unsupported DATABASE_URL {url!r}: only sqlite:///<path> is supported")
    return os.environ.get("DATABASE_PATH") or os.path.join(HERE, "data", "tasks.db")


class TaskStore:
    COLUMNS = ("id", "title", "description", "priority", "status", "due_date", "created_at", "updated_at")

    def __init__(self, path):
        if path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.row_factory = sqlite3.Row
        self.lock = threading.Lock()
        with self.lock:
            self.db.execute("""
                CREATE TABLE IF NOT EXISTS tasks (
                    id          INTEGER PRIMARY KEY AUTOINCREMENT,
                    title       TEXT NOT NULL CHECK (length(title) <= 200),
                    description TEXT CHECK (description IS NULL OR length(description) <= 1000),
                    priority    TEXT NOT NULL CHECK (priority IN ('low', 'medium', 'high')),
                    status      TEXT NOT NULL DEFAULT 'pending'
                                CHECK (status IN ('pending', 'in_progress', 'completed')),
                    due_date    TEXT,
                    created_at  TEXT NOT NULL,
                    updated_at  TEXT NOT NULL
                )""")

    def _row(self, row):
        return None if row is None else {k: row[k] for k in self.COLUMNS}

    def create(self, fields):
        ts = now_iso()
        with self.lock:
            cur = self.db.execute(
                "INSERT INTO tasks (title, description, priority, status, due_date, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (fields["title"], fields.get("description"), fields["priority"], fields.get("status", "pending"),
                 fields.get("due_date"), ts, ts))
            return self._row(self.db.execute("SELECT * FROM tasks WHERE id = ?", (cur.lastrowid,)).fetchone())

    def get(self, task_id):
        with self.lock:
            return self._row(self.db.execute("SELECT * FROM tasks WHERE id = ?", (task_id,)).fetchone())

    def update(self, task_id, fields):
        with self.lock:
            if fields:
                sets = ", ".join(f"{k} = ?" for k in fields) + ", updated_at = ?"
                self.db.execute(f"UPDATE tasks SET {sets} WHERE id = ?", (*fields.values(), now_iso(), task_id))
            return self._row(self.db.execute("SELECT * FROM tasks WHERE id = ?", (task_id,)).fetchone())

    def delete(self, task_id):
        with self.lock:
            return self.db.execute("DELETE FROM tasks WHERE id = ?", (task_id,)).rowcount > 0

    def list(self, status=None, priority=None, page=1, limit=DEFAULT_LIMIT):
        where, args = [], []
        if status:
            where.append("status = ?")
            args.append(status)
        if priority:
            where.append("priority = ?")
            args.append(priority)
        clause = (" WHERE " + " AND ".join(where)) if where else ""
        with self.lock:
            total = self.db.execute(f"SELECT COUNT(*) FROM tasks{clause}", args).fetchone()[0]
            rows = self.db.execute(f"SELECT * FROM tasks{clause} ORDER BY id LIMIT ? OFFSET ?",
                                   (*args, limit, (page - 1) * limit)).fetchall()
        return [self._row(r) for r in rows], total

    def ping(self):
        with self.lock:
            self.db.execute("SELECT 1").fetchone()


# --------------------------------------------------------------------------- validation
def check_title(data, required):
    if "title" not in data or data["title"] is None:
        if required:
            raise validation_error("'title' is required", "title")
        raise validation_error("'title' must not be null", "title")
    title = data["title"]
    if not isinstance(title, str):
        raise validation_error("'title' must be a string", "title")
    if title.strip() == "":
        raise validation_error("'title' must not be empty", "title")
    if len(title) > TITLE_MAX:
        raise validation_error(f"'title' must be at most {TITLE_MAX} characters", "title", max_length=TITLE_MAX)
    return title


def check_description(data):
    desc = data.get("description")
    if desc is None:
        return None
    if not isinstance(desc, str):
        raise validation_error("'description' must be a string", "description")
    if len(desc) > DESCRIPTION_MAX:
        raise validation_error(f"'description' must be at most {DESCRIPTION_MAX} characters", "description",
                               max_length=DESCRIPTION_MAX)
    return desc


def check_enum(data, key, allowed, required):
    if key not in data or data[key] is None:
        if required:
            raise validation_error(f"'{key}' is required", key, allowed=list(allowed))
        raise validation_error(f"'{key}' must not be null", key, allowed=list(allowed))
    value = data[key]
    if value not in allowed:
        raise validation_error(f"'{key}' must be one of: {', '.join(allowed)}", key, allowed=list(allowed))
    return value


def check_due_date(data):
    value = data.get("due_date")
    if value is None:
        return None
    if not isinstance(value, str) or not valid_iso8601(value.strip()):
        raise validation_error("'due_date' must be a valid ISO 8601 date or date-time", "due_date")
    return value.strip()


def validate_create(data):
    fields = {
        "title": check_title(data, True),
        "description": check_description(data),
        "priority": check_enum(data, "priority", PRIORITIES, True),
        "due_date": check_due_date(data),
    }
    return fields


def validate_update(data):
    fields = {}
    if "title" in data:
        fields["title"] = check_title(data, False)
    if "description" in data:
        fields["description"] = check_description(data)
    if "priority" in data:
        fields["priority"] = check_enum(data, "priority", PRIORITIES, False)
    if "status" in data:
        fields["status"] = check_enum(data, "status", STATUSES, False)
    if "due_date" in data:
        fields["due_date"] = check_due_date(data)
    return fields


def json_object_body():
    raw = request.get_data(cache=True)
    if not raw or not raw.strip():
        raise ApiError(400, "bad_request", "Request body must be a JSON object")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as e:
        raise ApiError(400, "invalid_json", "Request body is not valid JSON", {"reason": str(e)})
    if not isinstance(data, dict):
        raise ApiError(400, "bad_request", "Request body must be a JSON object")
    return data


def int_query(name, default):
    raw = request.args.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise validation_error(f"'{name}' must be an integer", name)


# --------------------------------------------------------------------------- app
def create_app(store=None):
    app = Flask(__name__)
    app.json.sort_keys = False
    app.json.ensure_ascii = False
    store = store or TaskStore(database_path())

    def error(status, code, message, details=None):
        body = {"error": {"code": code, "message": message}}
        if details is not None:
            body["error"]["details"] = details
        return jsonify(body), status

    @app.errorhandler(ApiError)
    def _api_error(e):
        log.info("request %s %s rejected: %s %s", request.method, request.path, e.status, e.message)
        return error(e.status, e.code, e.message, e.details)

    @app.errorhandler(404)
    def _not_found(e):
        return error(404, "not_found", "Resource not found")

    @app.errorhandler(405)
    def _method_not_allowed(e):
        return error(405, "method_not_allowed", "Method not allowed")

    @app.errorhandler(Exception)
    def _unexpected(e):
        if hasattr(e, "code") and isinstance(getattr(e, "code"), int):  # other werkzeug HTTP errors
            return error(e.code, "http_error", getattr(e, "description", str(e)))
        log.exception("unhandled error")
        return error(500, "internal_error", "Internal server error")

    def find(task_id):
        task = store.get(task_id)
        if task is None:
            raise ApiError(404, "not_found", f"Task {task_id} not found", {"task_id": task_id})
        return task

    @app.get("/")
    def index():
        return jsonify({"service": "Task Management Microservice", "version": VERSION,
                        "base_path": BASE, "docs": f"{BASE}/openapi.json"})

    @app.get(f"{BASE}/health")
    def health():
        store.ping()
        return jsonify({"status": "healthy", "timestamp": now_iso(), "version": VERSION})

    @app.post(f"{BASE}/tasks")
    def create_task():
        task = store.create(validate_create(json_object_body()))
        log.info("created task %s", task["id"])
        return jsonify(task), 201

    @app.get(f"{BASE}/tasks")
    def list_tasks():
        page = int_query("page", 1)
        limit = int_query("limit", DEFAULT_LIMIT)
        if page < 1:
            raise validation_error("'page' must be >= 1", "page")
        if limit < 1:
            raise validation_error("'limit' must be >= 1", "limit")
        limit = min(limit, MAX_LIMIT)
        status = request.args.get("status") or None
        priority = request.args.get("priority") or None
        if status is not None and status not in STATUSES:
            raise validation_error(f"'status' must be one of: {', '.join(STATUSES)}", "status")
        if priority is not None and priority not in PRIORITIES:
            raise validation_error(f"'priority' must be one of: {', '.join(PRIORITIES)}", "priority")
        tasks, total = store.list(status, priority, page, limit)
        return jsonify({"tasks": tasks, "pagination": {"page": page, "limit": limit, "total": total,
                                                       "pages": (total + limit - 1) // limit}})

    @app.get(f"{BASE}/tasks/<int:task_id>")
    def get_task(task_id):
        return jsonify(find(task_id))

    @app.put(f"{BASE}/tasks/<int:task_id>")
    def update_task(task_id):
        find(task_id)
        fields = validate_update(json_object_body())
        task = store.update(task_id, fields)
        log.info("updated task %s (%s)", task_id, ", ".join(fields) or "no changes")
        return jsonify(task)

    @app.delete(f"{BASE}/tasks/<int:task_id>")
    def delete_task(task_id):
        find(task_id)
        store.delete(task_id)
        log.info("deleted task %s", task_id)
        return jsonify({"message": f"Task {task_id} deleted successfully"})

    @app.get(f"{BASE}/openapi.json")
    def openapi():
        return jsonify(openapi_spec(app))

    return app


def openapi_spec(app):
    """OpenAPI 3 document generated from the registered routes plus the task schemas."""
    task_props = {
        "id": {"type": "integer"},
        "title": {"type": "string", "maxLength": TITLE_MAX},
        "description": {"type": "string", "maxLength": DESCRIPTION_MAX, "nullable": True},
        "priority": {"type": "string", "enum": list(PRIORITIES)},
        "status": {"type": "string", "enum": list(STATUSES)},
        "due_date": {"type": "string", "format": "date-time", "nullable": True},
        "created_at": {"type": "string", "format": "date-time"},
        "updated_at": {"type": "string", "format": "date-time"},
    }
    schemas = {
        "Task": {"type": "object", "properties": task_props},
        "TaskCreate": {"type": "object", "required": ["title", "priority"],
                       "properties": {k: task_props[k] for k in ("title", "description", "priority", "due_date")}},
        "TaskUpdate": {"type": "object",
                       "properties": {k: task_props[k] for k in ("title", "description", "priority", "status",
                                                                 "due_date")}},
        "Error": {"type": "object", "properties": {"error": {"type": "object", "properties": {
            "code": {"type": "string"}, "message": {"type": "string"}, "details": {"type": "object"}}}}},
    }
    bodies = {("POST", "/api/v1/tasks"): "TaskCreate", ("PUT", "/api/v1/tasks/{task_id}"): "TaskUpdate"}
    paths = {}
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith(BASE):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            op = {"operationId": rule.endpoint, "summary": (app.view_functions[rule.endpoint].__name__
                                                            .replace("_", " ")),
                  "responses": {"200": {"description": "OK"},
                                "default": {"description": "Error",
                                            "content": {"application/json": {"schema": {
                                                "$ref": "#/components/schemas/Error"}}}}}}
            if "{task_id}" in path:
                op["parameters"] = [{"name": "task_id", "in": "path", "required": True,
                                     "schema": {"type": "integer"}}]
            if (method, path) in bodies:
                op["requestBody"] = {"required": True, "content": {"application/json": {"schema": {
                    "$ref": f"#/components/schemas/{bodies[(method, path)]}"}}}}
            paths.setdefault(path, {})[method.lower()] = op
    return {"openapi": "3.0.3", "info": {"title": "Task Management Microservice", "version": VERSION},
            "paths": paths, "components": {"schemas": schemas}}


if __name__ == "__main__":
    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "INFO").upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    port = int(os.environ.get("PORT") or os.environ.get("SERVICE_PORT") or 8080)
    create_app().run(host=os.environ.get("HOST", "0.0.0.0"), port=port, threaded=True, debug=False,
                     use_reloader=False)
