"""User Management microservice (FastAPI + SQLite)."""
import json
import logging
import math
from datetime import datetime, timezone

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from . import config, db, security
from .validation import ROLES, STATUSES, validate_fields, validate_password

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
log = logging.getLogger("user-management")

app = FastAPI(title="User Management Service", version=config.APP_VERSION)
db.migrate()

P = config.API_PREFIX

CREATE_FIELDS = ("username", "email", "password", "full_name", "role", "phone")
CREATE_REQUIRED = ("username", "email", "password", "full_name", "role")
UPDATE_FIELDS = ("username", "email", "full_name", "role", "phone", "status")

# Machine-readable error codes (snake_case); specific errors may override the default for their status.
ERROR_CODES = {
    400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
    405: "method_not_allowed", 409: "conflict", 422: "validation_error", 500: "internal_error",
}


class ApiError(Exception):
    def __init__(self, status, message, details=None, code=None):
        super().__init__(message)
        self.status, self.message, self.details, self.code = status, message, details, code


def error_response(status, message, details=None, headers=None, code=None):
    body = {"error": {"code": code or ERROR_CODES.get(status, str(status)), "message": message}}
    if details:
        body["error"]["details"] = details
    return JSONResponse(body, status_code=status, headers=headers)


@app.exception_handler(ApiError)
async def api_error_handler(_request, exc: ApiError):
    return error_response(exc.status, exc.message, exc.details, code=exc.code)


@app.exception_handler(StarletteHTTPException)
async def http_error_handler(_request, exc: StarletteHTTPException):
    messages = {404: "Resource not found", 405: "Method not allowed"}
    return error_response(exc.status_code, messages.get(exc.status_code, str(exc.detail)))


@app.exception_handler(RequestValidationError)
async def validation_error_handler(_request, exc: RequestValidationError):
    details = {".".join(str(p) for p in e["loc"][1:]) or "request": e["msg"] for e in exc.errors()}
    return error_response(422, "Validation failed", details)


@app.exception_handler(Exception)
async def unhandled_error_handler(_request, exc: Exception):
    log.exception("unhandled error: %s", exc)
    return error_response(500, "Internal server error")


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


def parse_user_id(raw: str) -> int:
    try:
        value = int(raw)
    except ValueError:
        raise ApiError(404, "User not found")
    if value < 1:
        raise ApiError(404, "User not found")
    return value


def require_user(user_id: int):
    row = db.get_user(user_id)
    if row is None:
        raise ApiError(404, "User not found")
    return row


def parse_int_param(request, name, default, minimum, maximum):
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ApiError(422, "Validation failed", {name: "must be an integer"})
    if value < minimum or value > maximum:
        raise ApiError(422, "Validation failed", {name: f"must be between {minimum} and {maximum}"})
    return value


@app.get("/")
def root():
    return {"service": "user-management", "version": config.APP_VERSION, "docs": "/docs", "health": f"{P}/health"}


@app.get(f"{P}/health")
def health():
    ok = db.ping()
    body = {
        "status": "healthy" if ok else "unhealthy",
        "timestamp": datetime.now(timezone.utc).isoformat().replace("+00:00", "Z"),
        "version": config.APP_VERSION,
        "database": "connected" if ok else "disconnected",
    }
    return JSONResponse(body, status_code=200 if ok else 503)


@app.post(f"{P}/users", status_code=201)
async def create_user(request: Request):
    data = await json_object(request)
    errors = {}
    fields = validate_fields(data, CREATE_FIELDS, CREATE_REQUIRED, errors)
    if errors:
        raise ApiError(422, "Validation failed", errors)
    taken = db.conflicts(fields["username"], fields["email"])
    if taken:
        raise ApiError(409, f"{' and '.join(taken)} already exists", {f: "already exists" for f in taken})
    row = db.create_user(fields, security.hash_password(fields.pop("password")))
    log.info("user created id=%s username=%s", row["id"], row["username"])
    return JSONResponse(db.public(row), status_code=201)


@app.get(f"{P}/users")
def list_users(request: Request):
    page = parse_int_param(request, "page", 1, 1, 10**9)
    limit = parse_int_param(request, "limit", 10, 1, 100)
    status = request.query_params.get("status") or None
    role = request.query_params.get("role") or None
    if status is not None and status not in STATUSES:
        raise ApiError(422, "Validation failed", {"status": f"must be one of {list(STATUSES)}"})
    if role is not None and role not in ROLES:
        raise ApiError(422, "Validation failed", {"role": f"must be one of {list(ROLES)}"})
    search = request.query_params.get("search") or None
    users, total = db.list_users(page, limit, status, role, search)
    return {
        "users": users,
        "pagination": {"page": page, "limit": limit, "total": total, "pages": math.ceil(total / limit) if total else 0},
    }


@app.get(P + "/users/{user_id}")
def get_user(user_id: str):
    return db.public(require_user(parse_user_id(user_id)))


@app.put(P + "/users/{user_id}")
async def update_user(user_id: str, request: Request):
    uid = parse_user_id(user_id)
    require_user(uid)
    data = await json_object(request)
    errors = {}
    if "password" in data:
        errors["password"] = "use the reset-password endpoint to change passwords"
    fields = validate_fields(data, UPDATE_FIELDS, (), errors)
    if errors:
        raise ApiError(422, "Validation failed", errors)
    taken = db.conflicts(fields.get("username"), fields.get("email"), exclude_id=uid)
    if taken:
        raise ApiError(409, f"{' and '.join(taken)} already exists", {f: "already exists" for f in taken})
    row = db.update_user(uid, fields)
    log.info("user updated id=%s fields=%s", uid, sorted(fields))
    return db.public(row)


@app.delete(P + "/users/{user_id}")
def delete_user(user_id: str):
    uid = parse_user_id(user_id)
    if not db.delete_user(uid):
        raise ApiError(404, "User not found")
    log.info("user deleted id=%s", uid)
    return {"message": "User deleted successfully"}


@app.post(P + "/users/{user_id}/reset-password")
async def reset_password(user_id: str, request: Request):
    uid = parse_user_id(user_id)
    require_user(uid)
    data = await json_object(request)
    errors = {}
    new_password = data.get("new_password")
    if new_password is None:
        errors["new_password"] = "field required"
    elif not isinstance(new_password, str):
        errors["new_password"] = "must be a string"
    else:
        validate_password(new_password, errors, "new_password")
    if errors:
        raise ApiError(422, "Validation failed", errors)
    db.set_password(uid, security.hash_password(new_password))
    log.info("password reset for user id=%s", uid)
    return {"message": "Password reset successfully"}


@app.post(f"{P}/auth/login")
async def login(request: Request):
    data = await json_object(request)
    errors = {}
    for field in ("username", "password"):
        if field not in data or data[field] is None or data[field] == "":
            errors[field] = "field required"
        elif not isinstance(data[field], str):
            errors[field] = "must be a string"
    if errors:
        raise ApiError(422, "Validation failed", errors)
    row = db.get_by_username(data["username"].strip())
    if row is None or not security.verify_password(data["password"], row["password_hash"]):
        log.warning("failed login for username=%r", data["username"])
        raise ApiError(401, "Invalid username or password", code="authentication_failed")
    if row["status"] != "active":
        log.warning("login refused for %s user id=%s", row["status"], row["id"])
        raise ApiError(403, f"User account is {row['status']}", code=f"account_{row['status']}")
    token = security.create_token(dict(row))
    log.info("user logged in id=%s", row["id"])
    return {
        "access_token": token,
        "token_type": "Bearer",
        "expires_in": config.JWT_EXPIRES_IN,
        "user": {"id": row["id"], "username": row["username"], "email": row["email"], "role": row["role"]},
    }
