"""WebPan - file storage and sharing service (Flask). Metadata in memory, file bodies in a storage directory."""
import hashlib
import hmac
import logging
import math
import mimetypes
import os
import re
import secrets
import shutil
import signal
import threading
import time
import uuid
from datetime import datetime, timezone

from flask import Flask, jsonify, request, send_file
from werkzeug.exceptions import HTTPException

PORT = int(os.environ.get("PORT") or os.environ.get("SERVICE_PORT") or 8080)
API = "/api/v1"
MAX_FILE_SIZE = int(os.environ.get("WEBPAN_MAX_FILE_SIZE", 100 * 1024 * 1024))        # 100MB per file
DEFAULT_QUOTA = int(os.environ.get("WEBPAN_QUOTA", 10 * 1024 * 1024 * 1024))          # 10GB per user
MAX_REQUEST_SIZE = int(os.environ.get("WEBPAN_MAX_REQUEST_SIZE", 1024 * 1024 * 1024))  # hard cap per request
TOKEN_TTL = int(os.environ.get("WEBPAN_TOKEN_TTL", 3600))
# File bodies live in ./storage next to this file (or WEBPAN_STORAGE_DIR). Metadata is kept in memory, so
# bodies left over from an earlier run are orphans and are removed at start-up.
STORAGE_DIR = os.environ.get("WEBPAN_STORAGE_DIR") or os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                                   "storage")
shutil.rmtree(STORAGE_DIR, ignore_errors=True)
os.makedirs(STORAGE_DIR, exist_ok=True)


def _cleanup_storage(*_args):
    shutil.rmtree(STORAGE_DIR, ignore_errors=True)
    os._exit(0)


signal.signal(signal.SIGTERM, _cleanup_storage)

logging.basicConfig(level=os.environ.get("LOG_LEVEL", "INFO"), format="%(asctime)s %(levelname)s %(message)s")
audit = logging.getLogger("webpan.audit")

app = Flask(__name__)
# Parts bigger than this are spooled to disk by the multipart parser instead of memory.
app.config["MAX_FORM_MEMORY_SIZE"] = 1024 * 1024

lock = threading.RLock()
users = {}        # user_id -> {"username", "email", "password_hash", "created_at"}
usernames = {}    # username -> user_id
tokens = {}       # token -> (user_id, expires_at)
files = {}        # file_id -> metadata
shares = {}       # share_id -> metadata


# ---------------------------------------------------------------- helpers
class ApiError(Exception):
    def __init__(self, status, error, code, details=None):
        super().__init__(error)
        self.status, self.error, self.code, self.details = status, error, code, details


def fail(status, error, code, details=None):
    raise ApiError(status, error, code, details)


@app.errorhandler(ApiError)
def _api_error(e):
    body = {"success": False, "error": e.error, "error_code": e.code}
    if e.details:
        body["details"] = e.details
    return jsonify(body), e.status


@app.errorhandler(HTTPException)
def _http_error(e):
    codes = {400: "BAD_REQUEST", 404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED", 413: "FILE_TOO_LARGE"}
    return jsonify({"success": False, "error": e.description or e.name,
                    "error_code": codes.get(e.code, "HTTP_ERROR")}), e.code


@app.errorhandler(Exception)
def _unexpected(e):
    logging.exception("unhandled error")
    return jsonify({"success": False, "error": "Internal server error", "error_code": "INTERNAL_ERROR"}), 500


def iso(ts):
    return datetime.fromtimestamp(ts, timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def hash_password(password, salt=None):
    salt = salt or secrets.token_hex(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), bytes.fromhex(salt), 100_000).hex()
    return f"{salt}${digest}"


def check_password(password, stored):
    salt, _, digest = stored.partition("$")
    return hmac.compare_digest(hash_password(password, salt), f"{salt}${digest}")


def json_body():
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        fail(400, "Request body must be a JSON object", "INVALID_REQUEST")
    return data


def bearer_user(required=True):
    header = request.headers.get("Authorization", "")
    if not header:
        if required:
            fail(401, "Authentication required", "AUTH_REQUIRED")
        return None
    scheme, _, token = header.partition(" ")
    token = token.strip()
    with lock:
        entry = tokens.get(token) if scheme.lower() == "bearer" else None
        if entry and entry[1] < time.time():
            tokens.pop(token, None)
            entry = None
    if not entry or entry[0] not in users:
        if required:
            fail(401, "Invalid or expired token", "AUTH_INVALID")
        return None
    return entry[0]


def used_space(user_id):
    with lock:
        return sum(f["size"] for f in files.values() if f["owner_id"] == user_id)


def owned_file(file_id, user_id):
    with lock:
        meta = files.get(file_id)
    if meta is None or meta["owner_id"] != user_id:
        fail(404, "File not found", "FILE_NOT_FOUND")
    return meta


_BAD_NAME = re.compile(r"[\\/\x00-\x1f]")


def clean_filename(name):
    name = (name or "").strip()
    name = name.replace("\\", "/").split("/")[-1]
    if not name or name in (".", "..") or len(name) > 255 or _BAD_NAME.search(name):
        return None
    return name


def file_summary(meta):
    return {"file_id": meta["file_id"], "filename": meta["filename"], "size": meta["size"],
            "mime_type": meta["mime_type"], "upload_time": iso(meta["upload_time"]),
            "download_count": meta["download_count"]}


def store_upload(storage, user_id, folder_id=None, description=None):
    """Persist one uploaded part. Returns metadata or raises ApiError."""
    filename = clean_filename(storage.filename)
    if filename is None:
        fail(400, "Invalid or missing file name", "INVALID_FORMAT")
    stream = storage.stream
    stream.seek(0, os.SEEK_END)
    size = stream.tell()
    stream.seek(0)
    if size > MAX_FILE_SIZE:
        fail(413, f"File exceeds the maximum size of {MAX_FILE_SIZE} bytes", "FILE_TOO_LARGE")
    file_id = uuid.uuid4().hex
    path = os.path.join(STORAGE_DIR, file_id)
    with lock:
        if used_space(user_id) + size > DEFAULT_QUOTA:
            fail(413, "Storage quota exceeded", "QUOTA_EXCEEDED")
        # Reserve the space before the copy so concurrent uploads cannot overrun the quota.
        meta = {"file_id": file_id, "filename": filename, "size": size, "owner_id": user_id,
                "mime_type": storage.mimetype if storage.mimetype and storage.mimetype != "application/octet-stream"
                else (mimetypes.guess_type(filename)[0] or "application/octet-stream"),
                "upload_time": time.time(), "download_count": 0, "folder_id": folder_id,
                "description": description, "path": path, "ready": False}
        files[file_id] = meta
    try:
        with open(path, "wb") as out:
            shutil.copyfileobj(stream, out, 1024 * 1024)
    except Exception:
        with lock:
            files.pop(file_id, None)
        if os.path.exists(path):
            os.unlink(path)
        raise
    meta["ready"] = True
    audit.info("upload user=%s file=%s name=%r size=%d", user_id, file_id, filename, size)
    return meta


def guard_request_size():
    length = request.content_length
    if length is not None and length > MAX_REQUEST_SIZE:
        fail(413, "Request too large", "FILE_TOO_LARGE")


def share_state(share_id):
    with lock:
        share = shares.get(share_id)
        meta = files.get(share["file_id"]) if share else None
    if share is None or meta is None:
        fail(404, "Share link not found", "SHARE_NOT_FOUND")
    if share["expires_at"] is not None and share["expires_at"] <= time.time():
        fail(410, "Share link expired", "SHARE_EXPIRED")
    return share, meta


def check_share_access(share, password):
    if share["password_hash"]:
        if not password:
            fail(401, "Password required for this share link", "AUTH_REQUIRED")
        if not check_password(password, share["password_hash"]):
            fail(401, "Invalid share password", "AUTH_INVALID")
    elif not share["is_public"]:
        # Private share without password: any signed-in user may open it.
        bearer_user(required=True)


# ---------------------------------------------------------------- routes
@app.get("/")
def index():
    return jsonify({"success": True, "service": "WebPan", "api": API})


@app.get("/health")
@app.get(f"{API}/health")
def health():
    return jsonify({"success": True, "status": "healthy", "time": iso(time.time())})


@app.post(f"{API}/auth/register")
def register():
    data = json_body()
    username, password, email = data.get("username"), data.get("password"), data.get("email")
    if not isinstance(username, str) or not re.fullmatch(r"[A-Za-z0-9_.-]{3,32}", username):
        fail(400, "username must be 3-32 characters of letters, digits, '_', '.' or '-'", "INVALID_REQUEST")
    if not isinstance(password, str) or not 6 <= len(password) <= 128:
        fail(400, "password must be 6-128 characters", "INVALID_REQUEST")
    if not isinstance(email, str) or not re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", email):
        fail(400, "email must be a valid email address", "INVALID_REQUEST")
    with lock:
        if username in usernames:
            fail(409, "Username already exists", "USER_EXISTS")
        if any(u["email"].lower() == email.lower() for u in users.values()):
            fail(409, "Email already registered", "USER_EXISTS")
        user_id = uuid.uuid4().hex
        users[user_id] = {"username": username, "email": email, "password_hash": hash_password(password),
                          "created_at": time.time()}
        usernames[username] = user_id
    audit.info("register user=%s username=%r", user_id, username)
    return jsonify({"success": True, "message": "User registered successfully", "user_id": user_id})


@app.post(f"{API}/auth/login")
def login():
    data = json_body()
    username, password = data.get("username"), data.get("password")
    if not isinstance(username, str) or not isinstance(password, str) or not username or not password:
        fail(400, "username and password are required", "INVALID_REQUEST")
    with lock:
        user_id = usernames.get(username)
        user = users.get(user_id)
        if user is None or not check_password(password, user["password_hash"]):
            fail(401, "Invalid username or password", "AUTH_INVALID")
        token = secrets.token_urlsafe(32)
        tokens[token] = (user_id, time.time() + TOKEN_TTL)
    audit.info("login user=%s", user_id)
    return jsonify({"success": True, "token": token, "user_id": user_id, "expires_in": TOKEN_TTL})


@app.post(f"{API}/files/upload")
def upload():
    user_id = bearer_user()
    guard_request_size()
    storage = request.files.get("file")
    if storage is None:
        fail(400, "No file provided (form field 'file')", "INVALID_REQUEST")
    meta = store_upload(storage, user_id, request.form.get("folder_id") or None,
                        request.form.get("description") or None)
    return jsonify({"success": True, "file_id": meta["file_id"], "filename": meta["filename"],
                    "size": meta["size"], "upload_time": iso(meta["upload_time"]),
                    "download_url": f"{API}/files/{meta['file_id']}/download"})


@app.post(f"{API}/files/upload-multiple")
def upload_multiple():
    user_id = bearer_user()
    guard_request_size()
    parts = request.files.getlist("files")
    if not parts:
        fail(400, "No files provided (form field 'files')", "INVALID_REQUEST")
    folder_id = request.form.get("folder_id") or None
    uploaded, failed = [], []
    for part in parts:
        try:
            meta = store_upload(part, user_id, folder_id)
            uploaded.append({"file_id": meta["file_id"], "filename": meta["filename"], "size": meta["size"],
                             "status": "success"})
        except ApiError as e:
            failed.append({"filename": part.filename or "", "error": e.error, "error_code": e.code})
    return jsonify({"success": bool(uploaded) or not failed, "uploaded_files": uploaded, "failed_files": failed})


@app.get(f"{API}/files/<file_id>/download")
def download(file_id):
    share_token = request.args.get("share_token") or request.args.get("share_id")
    if share_token and not request.headers.get("Authorization"):
        share, meta = share_state(share_token)
        if meta["file_id"] != file_id:
            fail(404, "File not found", "FILE_NOT_FOUND")
        check_share_access(share, request.args.get("password"))
        with lock:
            share["access_count"] += 1
        who = f"share:{share_token}"
    else:
        user_id = bearer_user()
        meta = owned_file(file_id, user_id)
        who = user_id
    if not meta["ready"]:
        fail(404, "File not found", "FILE_NOT_FOUND")
    with lock:
        meta["download_count"] += 1
    audit.info("download by=%s file=%s", who, file_id)
    return send_file(meta["path"], mimetype=meta["mime_type"], as_attachment=True,
                     download_name=meta["filename"], max_age=0)


@app.get(f"{API}/files/<file_id>/info")
def file_info(file_id):
    meta = owned_file(file_id, bearer_user())
    info = file_summary(meta)
    info.update({"success": True, "owner_id": meta["owner_id"], "folder_id": meta["folder_id"],
                 "description": meta["description"]})
    return jsonify(info)


@app.get(f"{API}/files")
def list_files():
    user_id = bearer_user()
    try:
        page = int(request.args.get("page", 1))
        limit = int(request.args.get("limit", 20))
    except ValueError:
        fail(400, "page and limit must be integers", "INVALID_REQUEST")
    if page < 1 or not 1 <= limit <= 100:
        fail(400, "page must be >= 1 and limit between 1 and 100", "INVALID_REQUEST")
    sort_by = request.args.get("sort_by", "upload_time")
    order = request.args.get("order", "desc")
    keys = {"name": lambda f: f["filename"].lower(), "size": lambda f: f["size"],
            "upload_time": lambda f: f["upload_time"]}
    if sort_by not in keys or order not in ("asc", "desc"):
        fail(400, "sort_by must be name|size|upload_time and order asc|desc", "INVALID_REQUEST")
    folder_id = request.args.get("folder_id")
    with lock:
        mine = [f for f in files.values() if f["owner_id"] == user_id and f["ready"]
                and (folder_id is None or f["folder_id"] == folder_id)]
    mine.sort(key=keys[sort_by], reverse=(order == "desc"))
    total = len(mine)
    chunk = mine[(page - 1) * limit: page * limit]
    return jsonify({"success": True, "files": [file_summary(f) for f in chunk],
                    "pagination": {"page": page, "limit": limit, "total": total,
                                   "pages": math.ceil(total / limit) if total else 0}})


@app.delete(f"{API}/files/<file_id>")
def delete_file(file_id):
    user_id = bearer_user()
    meta = owned_file(file_id, user_id)
    with lock:
        files.pop(file_id, None)
        for sid in [s for s, v in shares.items() if v["file_id"] == file_id]:
            shares.pop(sid, None)
    if os.path.exists(meta["path"]):
        os.unlink(meta["path"])
    audit.info("delete user=%s file=%s", user_id, file_id)
    return jsonify({"success": True, "message": "File deleted successfully"})


@app.put(f"{API}/files/<file_id>/rename")
def rename_file(file_id):
    user_id = bearer_user()
    data = json_body()
    meta = owned_file(file_id, user_id)
    new_name = data.get("new_name")
    cleaned = clean_filename(new_name) if isinstance(new_name, str) else None
    if cleaned is None or cleaned != new_name.strip():
        fail(400, "new_name must be a non-empty file name without path separators", "INVALID_REQUEST")
    with lock:
        meta["filename"] = cleaned
    audit.info("rename user=%s file=%s name=%r", user_id, file_id, cleaned)
    return jsonify({"success": True, "message": "File renamed successfully", "new_filename": cleaned})


@app.post(f"{API}/files/<file_id>/share")
def create_share(file_id):
    user_id = bearer_user()
    data = request.get_json(silent=True)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        fail(400, "Request body must be a JSON object", "INVALID_REQUEST")
    meta = owned_file(file_id, user_id)
    is_public = data.get("is_public", True)
    expires_in = data.get("expires_in", 3600)
    password = data.get("password")
    if not isinstance(is_public, bool):
        fail(400, "is_public must be a boolean", "INVALID_REQUEST")
    if expires_in is not None and (isinstance(expires_in, bool) or not isinstance(expires_in, int) or expires_in <= 0):
        fail(400, "expires_in must be a positive integer (seconds)", "INVALID_REQUEST")
    if password is not None and (not isinstance(password, str) or not password):
        fail(400, "password must be a non-empty string", "INVALID_REQUEST")
    now = time.time()
    share_id = secrets.token_urlsafe(12)
    share = {"share_id": share_id, "file_id": meta["file_id"], "owner_id": user_id, "is_public": is_public,
             "password_hash": hash_password(password) if password else None, "created_at": now,
             "expires_at": now + expires_in if expires_in else None, "access_count": 0}
    with lock:
        shares[share_id] = share
    audit.info("share user=%s file=%s share=%s public=%s", user_id, file_id, share_id, is_public)
    return jsonify({"success": True, "share_id": share_id, "share_url": f"{API}/share/{share_id}",
                    "expires_at": iso(share["expires_at"]) if share["expires_at"] else None,
                    "access_count": 0})


@app.get(f"{API}/share/<share_id>")
def access_share(share_id):
    share, meta = share_state(share_id)
    password = request.args.get("password")
    check_share_access(share, password)
    with lock:
        share["access_count"] += 1
    audit.info("share-access share=%s file=%s", share_id, meta["file_id"])
    return jsonify({"success": True,
                    "file_info": {"filename": meta["filename"], "size": meta["size"], "mime_type": meta["mime_type"]},
                    "download_url": f"{API}/files/{meta['file_id']}/download?share_token={share_id}",
                    "access_count": share["access_count"],
                    "expires_at": iso(share["expires_at"]) if share["expires_at"] else None})


@app.delete(f"{API}/share/<share_id>")
def delete_share(share_id):
    user_id = bearer_user()
    with lock:
        share = shares.get(share_id)
        if share is None or share["owner_id"] != user_id:
            fail(404, "Share link not found", "SHARE_NOT_FOUND")
        shares.pop(share_id, None)
    audit.info("share-delete user=%s share=%s", user_id, share_id)
    return jsonify({"success": True, "message": "Share link deleted successfully"})


@app.get(f"{API}/storage/quota")
def quota():
    user_id = bearer_user()
    used = used_space(user_id)
    return jsonify({"success": True, "used_space": used, "total_space": DEFAULT_QUOTA,
                    "available_space": max(DEFAULT_QUOTA - used, 0),
                    "usage_percentage": round(used * 100 / DEFAULT_QUOTA, 2)})


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=PORT, threaded=True)
