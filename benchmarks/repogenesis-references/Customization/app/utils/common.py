"""Helpers: timestamps, ids, request parsing, pagination."""
import json
import math
import uuid
from datetime import datetime, timezone
from typing import Optional

from fastapi import Request

from ..core.errors import ApiError, validation_error


def now() -> datetime:
    return datetime.now(timezone.utc)


def iso(dt: datetime) -> str:
    return dt.isoformat(timespec="microseconds").replace("+00:00", "Z")


def parse_iso(value: str, field: str) -> datetime:
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        dt = datetime.fromisoformat(text)
    except ValueError:
        raise validation_error({field: "must be an ISO 8601 date or datetime"})
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt


def new_id() -> str:
    return str(uuid.uuid4())


async def json_object(request: Request) -> dict:
    raw = await request.body()
    if not raw.strip():
        raise ApiError(400, "Request body is required")
    try:
        data = json.loads(raw)
    except ValueError:
        raise ApiError(400, "Request body must be valid JSON")
    if not isinstance(data, dict):
        raise ApiError(400, "Request body must be a JSON object")
    return data


def require_string(data: dict, field: str, errors: dict, choices=None, required=True) -> Optional[str]:
    value = data.get(field)
    if value is None:
        if required:
            errors[field] = "field required"
        return None
    if not isinstance(value, str):
        errors[field] = "must be a string"
        return None
    if required and not value.strip():
        errors[field] = "must not be empty"
        return None
    if choices is not None and value not in choices:
        errors[field] = f"must be one of: {', '.join(choices)}"
        return None
    return value


def int_param(request: Request, name: str, default: int, maximum: int) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise validation_error({name: "must be an integer"})
    if value < 1 or value > maximum:
        raise validation_error({name: f"must be between 1 and {maximum}"})
    return value


def paginate(items: list, page: int, limit: int):
    total = len(items)
    start = (page - 1) * limit
    return items[start:start + limit], {
        "page": page, "limit": limit, "total": total, "pages": math.ceil(total / limit) if total else 0,
    }
