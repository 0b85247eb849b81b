"""ProjectC user management microservice (Flask + SQLite + HS256 JWT)."""
import base64
import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import sqlite3
import threading
import time
from datetime import datetime, timezone

from flask import Flask, g, jsonify, request
from werkzeug.exceptions import HTTPException

PORT = int(os.environ.get("PORT") or os.environ.get("SERVICE_PORT") or 8080)
DATABASE_PATH = os.environ.get("DATABASE_PATH", ":memory:")
JWT_SECRET = os.environ.get("JWT_SECRET") or secrets.token_hex(32)
JWT_EXPIRES_IN = int(os.environ.get("JWT_EXPIRES_IN", "3600"))
API = "/api/v1"

logging.basicConfig(level=os.environ.get("LOG_LEVEL", "INFO"),
                    format="%(asctime)s %(levelname)s %(name)s %(message)s")
log = logging.getLogger("projectc")

app = Flask(__name__)

# ---------------------------------------------------------------- database
_db_lock = threading.Lock()
_conn = sqlite3.connect(DATABASE_PATH, check_same_thread=False)
_conn.row_factory = sqlite3.Row
_conn.execute("""
CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    username TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    full_name TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
)""")
_conn.commit()


def db_execute(sql, params=()):
    with _db_lock:
        cur = _conn.execute(sql, params)
        _conn.commit()
        return cur


def db_one(sql, params=()):
    with _db_lock:
        return _conn.execute(sql, params).fetchone()


def now_iso():
    return datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


# ---------------------------------------------------------------- security
def hash_password(password):
    salt = secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 100_000)
    return f"pbkdf2_sha256$100000${salt.hex()}${digest.hex()}"


def verify_password(password, stored):
    try:
        _, iterations, salt_hex, digest_hex = stored.split("$")
        digest = hashlib.pbkdf2_hmac("sha256", password.encode(), bytes.fromhex(salt_hex), int(iterations))
        return hmac.compare_digest(digest.hex(), digest_hex)
    except ValueError:
        return False


def _b64e(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _b64d(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def jwt_encode(payload):
    header = _b64e(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = _b64e(json.dumps(payload, separators=(",", ":")).encode())
    sig = _b64e(hmac.new(JWT_SECRET.encode(), f"{header}.{body}".encode(), hashlib.sha256).digest())
    return f"{header}.{body}.{sig}"


def jwt_decode(token):
    """Return the payload of a valid, unexpired token, else None."""
    try:
        header, body, sig = token.split(".")
        expected = _b64e(hmac.new(JWT_SECRET.encode(), f"{header}.{body}".encode(), hashlib.sha256).digest())
        if not hmac.compare_digest(sig, expected):
            return None
        if json.loads(_b64d(header)).get("alg") != "HS256":
            return None
        payload = json.loads(_b64d(body))
    except (ValueError, AttributeError):
        return None
    if not isinstance(payload, dict) or payload.get("exp", 0) < time.time():
        return None
    return payload


# ---------------------------------------------------------------- helpers
class ApiError(Exception):
    def __init__(self, status, message, code, details=None):
        super().__init__(message)
        self.status, self.message, self.code, self.details = status, message, code, details


@app.errorhandler(ApiError)
def handle_api_error(e):
    body = {"success": False, "message": e.message, "error_code": e.code}
    if e.details is not None:
        body["details"] = e.details
    return jsonify(body), e.status


@app.errorhandler(HTTPException)
def handle_http_error(e):
    codes = {400: "BAD_REQUEST", 404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED", 415: "UNSUPPORTED_MEDIA_TYPE"}
    return jsonify({"success": False, "message": e.description or e.name,
                    "error_code": codes.get(e.code, e.name.upper().replace(" ", "_"))}), e.code


@app.errorhandler(Exception)
def handle_unexpected(e):
    log.exception("unhandled error")
    return jsonify({"success": False, "message": "Internal server error", "error_code": "INTERNAL_ERROR"}), 500


def json_body():
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise ApiError(400, "Request body must be a valid JSON object", "INVALID_JSON")
    return data


EMAIL_RE = re.compile(r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}$")
USERNAME_RE = re.compile(r"^[A-Za-z0-9_.-]+$")


def validation_error(field, message):
    raise ApiError(400, message, "VALIDATION_ERROR", {"field": field})


def check_email(value):
    if not isinstance(value, str) or not EMAIL_RE.match(value) or len(value) > 254:
        validation_error("email", "email must be a valid email address")


def check_full_name(value):
    if value is not None and (not isinstance(value, str) or len(value) > 100):
        validation_error("full_name", "full_name must be a string of at most 100 characters")


def public_user(row, *fields):
    data = {"user_id": row["id"], "username": row["username"], "email": row["email"],
            "full_name": row["full_name"] or ""}
    for f in fields:
        data[f] = row[f]
    return data


def authenticate():
    header = request.headers.get("Authorization")
    if not header:
        raise ApiError(401, "Missing Authorization header (Bearer token required)", "UNAUTHORIZED")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "Authorization header must be 'Bearer <token>'", "UNAUTHORIZED")
    payload = jwt_decode(token.strip())
    if payload is None:
        raise ApiError(401, "Invalid or expired token", "INVALID_TOKEN")
    try:
        return int(payload["sub"])
    except (KeyError, TypeError, ValueError):
        raise ApiError(401, "Invalid or expired token", "INVALID_TOKEN")


def load_target(user_id, caller_id):
    row = db_one("SELECT * FROM users WHERE id = ?", (user_id,))
    if row is None:
        raise ApiError(404, "User not found", "USER_NOT_FOUND")
    if caller_id != user_id:
        raise ApiError(403, "You do not have permission to access this user", "FORBIDDEN")
    return row


# ---------------------------------------------------------------- routes
@app.get("/")
def index():
    return jsonify({"success": True, "message": "ProjectC user management service", "data": {"api": API}})


@app.get("/health")
def health():
    db_one("SELECT 1")
    return jsonify({"status": "healthy", "success": True, "timestamp": now_iso()})


@app.post(f"{API}/users/register")
def register():
    data = json_body()
    username, email, password = data.get("username"), data.get("email"), data.get("password")
    full_name = data.get("full_name")
    missing = [f for f in ("username", "email", "password") if data.get(f) in (None, "")]
    if missing:
        raise ApiError(400, f"Missing required field(s): {', '.join(missing)} (required)", "VALIDATION_ERROR",
                       {"missing": missing})
    if not isinstance(username, str) or not 3 <= len(username) <= 20:
        validation_error("username", "username must be 3-20 characters")
    if not USERNAME_RE.match(username):
        validation_error("username", "username may only contain letters, digits, '_', '.' and '-'")
    check_email(email)
    if not isinstance(password, str) or not 6 <= len(password) <= 50:
        validation_error("password", "password must be 6-50 characters")
    check_full_name(full_name)

    if db_one("SELECT 1 FROM users WHERE username = ?", (username,)):
        raise ApiError(400, "username already exists", "USERNAME_EXISTS")
    if db_one("SELECT 1 FROM users WHERE email = ?", (email,)):
        raise ApiError(400, "email already exists", "EMAIL_EXISTS")
    ts = now_iso()
    try:
        cur = db_execute("INSERT INTO users (username, email, password_hash, full_name, created_at, updated_at) "
                         "VALUES (?, ?, ?, ?, ?, ?)", (username, email, hash_password(password), full_name, ts, ts))
    except sqlite3.IntegrityError:
        raise ApiError(400, "username or email already exists", "USER_EXISTS")
    row = db_one("SELECT * FROM users WHERE id = ?", (cur.lastrowid,))
    log.info("registered user %s (%s)", username, row["id"])
    return jsonify({"success": True, "message": "User registered successfully",
                    "data": public_user(row, "created_at")}), 201


@app.post(f"{API}/users/login")
def login():
    data = json_body()
    username, password = data.get("username"), data.get("password")
    missing = [f for f in ("username", "password") if not isinstance(data.get(f), str) or data.get(f) == ""]
    if missing:
        raise ApiError(400, f"Missing required field(s): {', '.join(missing)} (required)", "VALIDATION_ERROR",
                       {"missing": missing})
    row = db_one("SELECT * FROM users WHERE username = ?", (username,))
    if row is None or not verify_password(password, row["password_hash"]):
        raise ApiError(401, "Invalid username or password (invalid credentials)", "INVALID_CREDENTIALS")
    now = int(time.time())
    token = jwt_encode({"sub": str(row["id"]), "username": row["username"], "iat": now,
                        "exp": now + JWT_EXPIRES_IN})
    return jsonify({"success": True, "message": "Login successful",
                    "data": {"access_token": token, "token_type": "Bearer", "expires_in": JWT_EXPIRES_IN,
                             "user": public_user(row)}})


@app.get(f"{API}/users/<int:user_id>")
def get_user(user_id):
    caller = authenticate()
    row = load_target(user_id, caller)
    return jsonify({"success": True, "message": "User retrieved successfully",
                    "data": public_user(row, "created_at", "updated_at")})


@app.put(f"{API}/users/<int:user_id>")
def update_user(user_id):
    caller = authenticate()
    data = json_body()
    row = load_target(user_id, caller)
    email = row["email"]
    full_name = row["full_name"]
    if "email" in data:
        check_email(data["email"])
        other = db_one("SELECT id FROM users WHERE email = ? AND id != ?", (data["email"], user_id))
        if other:
            raise ApiError(400, "email already exists", "EMAIL_EXISTS")
        email = data["email"]
    if "full_name" in data:
        check_full_name(data["full_name"])
        full_name = data["full_name"]
    ts = now_iso() if (email, full_name) != (row["email"], row["full_name"]) else row["updated_at"]
    try:
        db_execute("UPDATE users SET email = ?, full_name = ?, updated_at = ? WHERE id = ?",
                   (email, full_name, ts, user_id))
    except sqlite3.IntegrityError:
        raise ApiError(400, "email already exists", "EMAIL_EXISTS")
    row = db_one("SELECT * FROM users WHERE id = ?", (user_id,))
    return jsonify({"success": True, "message": "User updated successfully",
                    "data": public_user(row, "updated_at")})


@app.delete(f"{API}/users/<int:user_id>")
def delete_user(user_id):
    caller = authenticate()
    load_target(user_id, caller)
    db_execute("DELETE FROM users WHERE id = ?", (user_id,))
    log.info("deleted user %s", user_id)
    return jsonify({"success": True, "message": "User deleted successfully"})


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=PORT, threaded=True)
