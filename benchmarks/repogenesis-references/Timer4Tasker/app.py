"""Timer4Tasker HTTP API (Flask). Run with ``python app.py``; listens on $PORT (default 8080)."""
import os

from flask import Flask, jsonify, request

from timer4tasker.service import TASK_TYPES, TaskService, ValidationError, next_run
from timer4tasker.storage import Store

BASE = "/api/v1"
HERE = os.path.dirname(os.path.abspath(__file__))


def ok(data=None, message=None, status=200):
    body = {"success": True}
    if data is not None:
        body["data"] = data
    if message is not None:
        body["message"] = message
    return jsonify(body), status


def fail(status, message, error=None):
    body = {"success": False, "message": message}
    if error:
        body["error"] = error
    return jsonify(body), status


def task_summary(t):
    return {"task_id": t["task_id"], "name": t["name"], "task_type": t["task_type"], "schedule": t["schedule"],
            "enabled": t["enabled"], "created_at": t["created_at"], "last_run": t["last_run"]}


def task_detail(t):
    return {"task_id": t["task_id"], "name": t["name"], "description": t["description"],
            "task_type": t["task_type"], "schedule": t["schedule"], "config": t["config"],
            "enabled": t["enabled"], "created_at": t["created_at"], "updated_at": t["updated_at"],
            "last_run": t["last_run"], "next_run": next_run(t)}


def parse_bool(raw):
    v = raw.strip().lower()
    if v in ("true", "1", "yes"):
        return True
    if v in ("false", "0", "no"):
        return False
    raise ValueError(raw)


def parse_positive_int(name, default):
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        v = int(raw)
    except ValueError:
        raise ValidationError(f"'{name}' must be an integer")
    if v < 1:
        raise ValidationError(f"'{name}' must be a positive integer")
    return v


def create_app(store=None, start_scheduler=True):
    app = Flask(__name__)
    app.json.sort_keys = False
    service = TaskService(store or Store(os.environ.get("TIMER4TASKER_DB") or
                                         os.path.join(HERE, "data", "timer4tasker.db")))
    if start_scheduler:
        service.start_scheduler()

    def json_body():
        data = request.get_json(silent=True)
        if data is None:
            data = {} if not request.get_data() else None
        if not isinstance(data, dict):
            raise ValidationError("request body must be a JSON object")
        return data

    def load(task_id):
        task = service.store.get_task(task_id)
        if task is None:
            raise LookupError(task_id)
        return task

    @app.errorhandler(ValidationError)
    def _bad_request(e):
        return fail(400, str(e), "VALIDATION_ERROR")

    @app.errorhandler(LookupError)
    def _task_not_found(e):
        return fail(404, f"task '{e.args[0]}' not found", "NOT_FOUND")

    @app.errorhandler(404)
    def _not_found(e):
        return fail(404, "resource not found", "NOT_FOUND")

    @app.errorhandler(405)
    def _method(e):
        return fail(405, "method not allowed", "METHOD_NOT_ALLOWED")

    @app.errorhandler(500)
    def _internal(e):
        return fail(500, "internal server error", "INTERNAL_ERROR")

    @app.get("/")
    def index():
        return ok({"service": "Timer4Tasker", "base_url": BASE})

    @app.get("/health")
    @app.get(f"{BASE}/health")
    def health():
        return ok({"status": "ok"})

    @app.post(f"{BASE}/tasks")
    def create_task():
        task = service.create(json_body())
        return ok({k: task[k] for k in ("task_id", "name", "task_type", "schedule", "enabled", "created_at")},
                  "task created", 201)

    @app.get(f"{BASE}/tasks")
    def list_tasks():
        task_type = request.args.get("task_type")
        if task_type is not None and task_type not in TASK_TYPES:
            raise ValidationError(f"'task_type' must be one of: {', '.join(TASK_TYPES)}")
        enabled = request.args.get("enabled")
        if enabled is not None:
            try:
                enabled = parse_bool(enabled)
            except ValueError:
                raise ValidationError("'enabled' must be a boolean")
        page = parse_positive_int("page", 1)
        page_size = parse_positive_int("page_size", 10)
        tasks, total = service.store.list_tasks(task_type, enabled, (page - 1) * page_size, page_size)
        return ok({"tasks": [task_summary(t) for t in tasks], "total": total, "page": page,
                   "page_size": page_size})

    @app.get(f"{BASE}/tasks/<task_id>")
    def get_task(task_id):
        return ok(task_detail(load(task_id)))

    @app.put(f"{BASE}/tasks/<task_id>")
    def update_task(task_id):
        task = service.update(load(task_id), json_body())
        return ok({k: task[k] for k in ("task_id", "name", "task_type", "schedule", "enabled", "updated_at")},
                  "task updated")

    @app.delete(f"{BASE}/tasks/<task_id>")
    def delete_task(task_id):
        load(task_id)
        service.store.delete_task(task_id)
        return ok(message=f"task '{task_id}' deleted")

    @app.post(f"{BASE}/tasks/<task_id>/toggle")
    def toggle_task(task_id):
        load(task_id)
        data = json_body()
        if "enabled" not in data or not isinstance(data["enabled"], bool):
            raise ValidationError("'enabled' (boolean) is required")
        task = service.update(load(task_id), {"enabled": data["enabled"]})
        return ok({"task_id": task["task_id"], "enabled": task["enabled"]},
                  "task started" if task["enabled"] else "task stopped")

    @app.post(f"{BASE}/tasks/<task_id>/execute")
    def execute_task(task_id):
        e = service.execute(load(task_id))
        return ok({"execution_id": e["execution_id"], "task_id": e["task_id"], "status": e["status"],
                   "started_at": e["started_at"]}, "execution started")

    @app.get(f"{BASE}/tasks/<task_id>/executions")
    def executions(task_id):
        load(task_id)
        limit = parse_positive_int("limit", 20)
        return ok({"executions": service.store.list_executions(task_id, limit)})

    @app.get(f"{BASE}/stats")
    def stats():
        return ok(service.store.stats())

    return app


if __name__ == "__main__":
    port = int(os.environ.get("PORT") or os.environ.get("SERVICE_PORT") or 8080)
    create_app().run(host="0.0.0.0", port=port, threaded=True, debug=False, use_reloader=False)
