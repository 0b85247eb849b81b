"""Task service: validation, execution and the cron scheduler loop."""
import threading
import time
import uuid
from datetime import datetime, timezone

from .cron import CronSchedule, CronError
from .jobs import JOBS

TASK_TYPES = tuple(JOBS)


def now_iso():
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def to_iso(dt):
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class ValidationError(Exception):
    pass


def _check_str(data, key, required, allow_empty=False):
    if key not in data or data[key] is None:
        if required:
            raise ValidationError(f"'{key}' is required")
        return None
    v = data[key]
    if not isinstance(v, str):
        raise ValidationError(f"'{key}' must be a string")
    if not allow_empty and v.strip() == "":
        raise ValidationError(f"'{key}' must not be empty")
    return v


def _check_schedule(value):
    try:
        CronSchedule(value)
    except CronError as e:
        raise ValidationError(f"invalid cron expression '{value}': {e}")
    return value


def _check_config(value):
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValidationError("'config' must be an object")
    if "days" in value and value["days"] is not None:
        d = value["days"]
        if isinstance(d, bool) or not isinstance(d, (int, float)) or d < 0:
            raise ValidationError("'config.days' must be a non-negative number")
    for key in ("path", "pattern", "source", "target"):
        if key in value and value[key] is not None and not isinstance(value[key], str):
            raise ValidationError(f"'config.{key}' must be a string")
    return value


def _check_bool(data, key):
    v = data[key]
    if not isinstance(v, bool):
        raise ValidationError(f"'{key}' must be a boolean")
    return v


def validate_create(data):
    name = _check_str(data, "name", True)
    task_type = data.get("task_type")
    if task_type is None:
        raise ValidationError("'task_type' is required")
    if task_type not in TASK_TYPES:
        raise ValidationError(f"'task_type' must be one of: {', '.join(TASK_TYPES)}")
    schedule = _check_str(data, "schedule", True)
    _check_schedule(schedule)
    description = _check_str(data, "description", False, allow_empty=True) or ""
    config = _check_config(data.get("config"))
    enabled = _check_bool(data, "enabled") if data.get("enabled") is not None else True
    return {"name": name, "description": description, "task_type": task_type, "schedule": schedule,
            "config": config, "enabled": enabled}


def validate_update(data, task):
    fields = {}
    if "name" in data:
        fields["name"] = _check_str(data, "name", True)
    if "description" in data:
        fields["description"] = _check_str(data, "description", False, allow_empty=True) or ""
    if "schedule" in data:
        fields["schedule"] = _check_schedule(_check_str(data, "schedule", True))
    if "config" in data:
        fields["config"] = _check_config(data["config"])
    if "enabled" in data:
        fields["enabled"] = _check_bool(data, "enabled")
    if "task_type" in data and data["task_type"] != task["task_type"]:
        raise ValidationError("'task_type' cannot be changed")
    return fields


def next_run(task):
    if not task["enabled"]:
        return None
    try:
        nxt = CronSchedule(task["schedule"]).next_after(datetime.now(timezone.utc))
    except CronError:
        return None
    return to_iso(nxt) if nxt else None


class TaskService:
    def __init__(self, store):
        self.store = store
        self._stop = threading.Event()
        self._scheduler = None

    # ---- tasks
    def create(self, data):
        fields = validate_create(data)
        ts = now_iso()
        fields.update({"task_id": uuid.uuid4().hex, "created_at": ts, "updated_at": ts, "last_run": None})
        return self.store.insert_task(fields)

    def update(self, task, data):
        fields = validate_update(data, task)
        if fields:
            fields["updated_at"] = now_iso()
        return self.store.update_task(task["task_id"], fields)

    # ---- executions
    def execute(self, task, trigger="manual"):
        execution = {"execution_id": uuid.uuid4().hex, "task_id": task["task_id"], "status": "running",
                     "trigger": trigger, "started_at": now_iso()}
        self.store.insert_execution(execution)
        threading.Thread(target=self._run, args=(task, execution["execution_id"]), daemon=True).start()
        return execution

    def _run(self, task, execution_id):
        try:
            result = JOBS[task["task_type"]](task.get("config") or {})
        except Exception as e:  # a failing job is recorded, never fatal to the service
            self.store.finish_execution(execution_id, "failed", now_iso(), error=str(e) or e.__class__.__name__)
        else:
            self.store.finish_execution(execution_id, "completed", now_iso(), result=result)

    # ---- scheduler
    def start_scheduler(self):
        if self._scheduler is None:
            self._scheduler = threading.Thread(target=self._scheduler_loop, name="scheduler", daemon=True)
            self._scheduler.start()

    def stop_scheduler(self):
        self._stop.set()

    def _scheduler_loop(self):
        last_minute = datetime.now(timezone.utc).replace(second=0, microsecond=0)
        while not self._stop.is_set():
            now = datetime.now(timezone.utc)
            minute = now.replace(second=0, microsecond=0)
            if minute > last_minute:
                last_minute = minute
                self._fire(minute)
            self._stop.wait(max(0.2, 60 - now.second - now.microsecond / 1e6 + 0.05))

    def _fire(self, minute):
        tasks, _ = self.store.list_tasks(enabled=True)
        for task in tasks:
            try:
                if CronSchedule(task["schedule"]).matches(minute):
                    self.execute(task, trigger="scheduled")
            except Exception:
                continue
