"""HTTP API of the File Relay service (Flask)."""
import hashlib
import logging
import math
import os
import re
import secrets
import tempfile
import unicodedata
from datetime import datetime, timezone
from functools import wraps

from flask import Flask, Request, g, jsonify, request, send_file
from werkzeug.exceptions import HTTPException

from . import __version__
from .auth import TokenError, TokenSigner, hash_password, load_secret, verify_password
from .filetypes import CATEGORIES, classify
from .storage import Store

log = logging.getLogger("file_relay")

API = "/api/v1"
MAX_FILE_SIZE = 100 * 1024 * 1024  # 100MB
MAX_DESCRIPTION = 500
MAX_TAGS = 50
MAX_TAG_LENGTH = 64
USERNAME_RE = re.compile(r"^[A-Za-z0-9_]{3,32}$")
MIN_PASSWORD = 8


class ApiError(Exception):
    def __init__(self, status, code, message, details=None):
        super().__init__(message)
        self.status, self.code, self.message, self.details = status, code, message, details or {}


def now_iso():
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class CappedSpool:
    """Upload buffer that stores at most MAX_FILE_SIZE + 1 bytes but counts everything written.

    The request body is always read to the end (so the client gets a clean 413 instead of a reset
    connection), while an oversized upload never fills the disk.
    """

    def __init__(self):
        self._file = tempfile.SpooledTemporaryFile(max_size=1024 * 1024)
        self.total = 0

    def write(self, data):
        room = MAX_FILE_SIZE + 1 - self.stored()
        if room > 0:
            self._file.write(data[:room])
        self.total += len(data)
        return len(data)

    def stored(self):
        return min(self.total, MAX_FILE_SIZE + 1)

    def __getattr__(self, name):
        return getattr(self._file, name)

    def __iter__(self):
        return iter(self._file)


class RelayRequest(Request):
    def _get_file_stream(self, total_content_length, content_type, filename=None, content_length=None):
        return CappedSpool()


def sanitize_filename(raw):
    """Keep only the final path component, drop control characters, keep Unicode."""
    name = unicodedata.normalize("NFC", raw or "")
    name = name.replace("\\", "/").split("/")[-1]
    name = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C")
    name = name.strip()
    if len(name.encode("utf-8")) > 255:
        stem, dot, ext = name.rpartition(".")
        keep = ext if dot and len(ext) <= 10 else ""
        name = name.encode("utf-8")[: 240].decode("utf-8", "ignore") + (("." + keep) if keep else "")
    return name


def parse_tags(value):
    if value is None:
        return []
    if isinstance(value, str):
        items = value.split(",")
    elif isinstance(value, list):
        items = value
    else:
        raise ApiError(400, "INVALID_REQUEST", "tags must be a comma-separated string or an array of strings")
    tags = []
    for item in items:
        if not isinstance(item, str):
            raise ApiError(400, "INVALID_REQUEST", "tags must contain only strings")
        tag = item.strip()
        if not tag:
            continue
        if len(tag) > MAX_TAG_LENGTH:
            raise ApiError(400, "INVALID_REQUEST", f"each tag must be at most {MAX_TAG_LENGTH} characters",
                           {"tag": tag[:MAX_TAG_LENGTH]})
        if tag not in tags:
            tags.append(tag)
    if len(tags) > MAX_TAGS:
        raise ApiError(400, "INVALID_REQUEST", f"at most {MAX_TAGS} tags are allowed", {"count": len(tags)})
    return tags


def check_description(value):
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ApiError(400, "INVALID_REQUEST", "description must be a string")
    if len(value) > MAX_DESCRIPTION:
        raise ApiError(400, "INVALID_REQUEST", f"description must be at most {MAX_DESCRIPTION} characters",
                       {"length": len(value), "max_length": MAX_DESCRIPTION})
    return value


def int_param(name, default, minimum, maximum=None):
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ApiError(400, "INVALID_REQUEST", f"{name} must be an integer", {name: raw})
    if value < minimum or (maximum is not None and value > maximum):
        bounds = f"between {minimum} and {maximum}" if maximum is not None else f"at least {minimum}"
        raise ApiError(400, "INVALID_REQUEST", f"{name} must be {bounds}", {name: value})
    return value


def file_summary(rec):
    return {
        "id": rec["id"],
        "filename": rec["filename"],
        "size": rec["size"],
        "content_type": rec["content_type"],
        "upload_time": rec["upload_time"],
        "uploader": rec["uploader"],
        "description": rec["description"],
        "tags": rec["tags"],
        "download_url": f"{API}/files/{rec['id']}/download",
    }


def file_detail(rec):
    data = file_summary(rec)
    data["checksum"] = rec["checksum"]
    return data


def create_app(data_dir=None):
    data_dir = os.path.abspath(data_dir or os.environ.get("FILE_RELAY_DATA_DIR") or
                               os.path.join(os.getcwd(), "data"))
    os.makedirs(data_dir, exist_ok=True)
    store = Store(data_dir)
    signer = TokenSigner(load_secret(data_dir))
    admins = {u.strip() for u in os.environ.get("FILE_RELAY_ADMINS", "").split(",") if u.strip()}

    app = Flask(__name__)
    app.request_class = RelayRequest
    app.json.ensure_ascii = False
    app.json.sort_keys = False

    # errors ---------------------------------------------------------------
    def error(status, code, message, details=None):
        return jsonify({"error": {"code": code, "message": message, "details": details or {}}}), status

    @app.errorhandler(ApiError)
    def _api_error(e):
        return error(e.status, e.code, e.message, e.details)

    @app.errorhandler(HTTPException)
    def _http_error(e):
        codes = {400: "INVALID_REQUEST", 401: "UNAUTHORIZED", 403: "FORBIDDEN", 404: "NOT_FOUND",
                 405: "METHOD_NOT_ALLOWED", 409: "CONFLICT", 413: "FILE_TOO_LARGE", 415: "UNSUPPORTED_TYPE"}
        return error(e.code, codes.get(e.code, "INVALID_REQUEST"), e.description or e.name)

    @app.errorhandler(Exception)
    def _internal(e):
        log.exception("unhandled error on %s %s", request.method, request.path)
        return error(500, "INTERNAL_ERROR", "Internal server error")

    @app.after_request
    def _log(resp):
        user = getattr(g, "user", None)
        log.info("%s %s -> %s (user=%s)", request.method, request.path, resp.status_code,
                 user["username"] if user else "-")
        return resp

    # auth -----------------------------------------------------------------
    def require_auth(view):
        @wraps(view)
        def wrapper(*args, **kwargs):
            header = request.headers.get("Authorization", "")
            parts = header.split()
            if len(parts) != 2 or parts[0].lower() != "bearer":
                raise ApiError(401, "UNAUTHORIZED", "Missing or malformed Authorization header")
            try:
                claims = signer.verify(parts[1])
            except TokenError as exc:
                raise ApiError(401, "UNAUTHORIZED", str(exc))
            user = store.get_user_by_id(claims.get("sub"))
            if user is None:
                raise ApiError(401, "UNAUTHORIZED", "Unknown user")
            g.user = user
            return view(*args, **kwargs)
        return wrapper

    def json_object():
        data = request.get_json(silent=True)
        if not isinstance(data, dict):
            raise ApiError(400, "INVALID_REQUEST", "Request body must be a JSON object")
        return data

    def owned_file(file_id):
        rec = store.get_file(file_id)
        if rec is None:
            raise ApiError(404, "NOT_FOUND", "File not found", {"file_id": file_id})
        if rec["uploader"] != g.user["username"] and not g.user["is_admin"]:
            raise ApiError(403, "FORBIDDEN", "Only the uploader or an admin may modify this file",
                           {"file_id": file_id})
        return rec

    # routes ---------------------------------------------------------------
    @app.get("/")
    def index():
        return jsonify({"service": "file-relay", "version": __version__, "base_path": API})

    @app.get(f"{API}/health")
    def health():
        return jsonify({"status": "ok", "service": "file-relay", "version": __version__})

    @app.post(f"{API}/auth/register")
    def register():
        data = json_object()
        username, password = data.get("username"), data.get("password")
        details = {}
        if not isinstance(username, str) or not USERNAME_RE.match(username):
            details["username"] = "3-32 characters, letters, digits and underscores only"
        if not isinstance(password, str) or len(password) < MIN_PASSWORD:
            details["password"] = f"at least {MIN_PASSWORD} characters"
        if details:
            raise ApiError(400, "INVALID_REQUEST", "Invalid registration data", details)
        user = {
            "id": "usr_" + secrets.token_hex(8),
            "username": username,
            "password_hash": hash_password(password),
            "is_admin": username in admins,
            "created_at": now_iso(),
        }
        if store.get_user(username) is not None or not store.create_user(user):
            raise ApiError(409, "CONFLICT", "Username already exists", {"username": username})
        log.info("user registered: %s", username)
        return jsonify({"id": user["id"], "username": username, "created_at": user["created_at"]}), 201

    @app.post(f"{API}/auth/login")
    def login():
        data = json_object()
        username, password = data.get("username"), data.get("password")
        if not isinstance(username, str) or not isinstance(password, str):
            raise ApiError(400, "INVALID_REQUEST", "username and password are required")
        user = store.get_user(username)
        if user is None or not verify_password(password, user["password_hash"]):
            log.info("failed login for %s", username)
            raise ApiError(401, "UNAUTHORIZED", "Invalid username or password")
        log.info("user logged in: %s", username)
        return jsonify({"access_token": signer.issue(user["id"], user["username"]), "token_type": "Bearer"})

    @app.post(f"{API}/files")
    @require_auth
    def upload():
        upload_file = request.files.get("file")
        if upload_file is None:
            raise ApiError(400, "INVALID_REQUEST", "Missing multipart field 'file'")
        spool = upload_file.stream
        size = spool.total if isinstance(spool, CappedSpool) else None
        if size is None:
            spool.seek(0, os.SEEK_END)
            size = spool.tell()
        if size > MAX_FILE_SIZE:
            raise ApiError(413, "FILE_TOO_LARGE",
                           "File size exceeds the maximum allowed limit of 100MB",
                           {"file_size": size, "max_size": MAX_FILE_SIZE})
        filename = sanitize_filename(upload_file.filename)
        if not filename or filename in (".", ".."):
            raise ApiError(400, "INVALID_REQUEST", "Invalid or missing filename")
        if size == 0:
            raise ApiError(400, "INVALID_REQUEST", "File is empty")
        kind = classify(filename)
        if kind is None:
            raise ApiError(415, "UNSUPPORTED_TYPE", "Unsupported file type",
                           {"filename": filename, "content_type": upload_file.mimetype})
        _ext, category, mime = kind
        description = check_description(request.form.get("description"))
        tags = parse_tags(request.form.get("tags"))

        file_id = "file_" + secrets.token_hex(12)
        day = datetime.now(timezone.utc)
        rel_dir = os.path.join(f"{day:%Y}", f"{day:%m}", f"{day:%d}")
        os.makedirs(os.path.join(store.blob_dir, rel_dir), exist_ok=True)
        rel_path = os.path.join(rel_dir, file_id)
        final_path = os.path.join(store.blob_dir, rel_path)
        tmp_path = final_path + ".part"
        digest = hashlib.sha256()
        spool.seek(0)
        with open(tmp_path, "wb") as out:
            while True:
                chunk = spool.read(1024 * 1024)
                if not chunk:
                    break
                digest.update(chunk)
                out.write(chunk)
        os.replace(tmp_path, final_path)
        record = {
            "id": file_id,
            "filename": filename,
            "size": size,
            "content_type": mime,
            "category": category,
            "upload_time": now_iso(),
            "uploader": g.user["username"],
            "description": description,
            "tags": tags,
            "checksum": "sha256:" + digest.hexdigest(),
            "path": rel_path,
        }
        try:
            store.add_file(record)
        except Exception:
            os.remove(final_path)
            raise
        log.info("file uploaded: %s (%s, %d bytes) by %s", file_id, filename, size, g.user["username"])
        return jsonify(file_summary(record)), 201

    @app.get(f"{API}/files")
    @require_auth
    def list_files():
        page = int_param("page", 1, 1)
        page_size = int_param("page_size", 20, 1, 100)
        file_type = request.args.get("file_type") or None
        if file_type is not None and file_type not in CATEGORIES:
            raise ApiError(400, "INVALID_REQUEST", "file_type must be one of " + ", ".join(CATEGORIES),
                           {"file_type": file_type})
        uploader = request.args.get("uploader") or None
        files, total = store.list_files(page, page_size, file_type, uploader)
        return jsonify({
            "files": [file_summary(f) for f in files],
            "page": page,
            "page_size": page_size,
            "total": total,
            "total_pages": math.ceil(total / page_size) if total else 0,
        })

    @app.get(f"{API}/files/search")
    @require_auth
    def search_files():
        query = (request.args.get("q") or "").strip()
        if len(query) < 2:
            raise ApiError(400, "INVALID_REQUEST", "q must be at least 2 characters", {"q": query})
        page = int_param("page", 1, 1)
        page_size = int_param("page_size", 20, 1, 100)
        files, total = store.search_files(query, page, page_size)
        return jsonify({
            "files": [file_summary(f) for f in files],
            "query": query,
            "page": page,
            "page_size": page_size,
            "total": total,
        })

    @app.get(f"{API}/files/<file_id>")
    @require_auth
    def file_info(file_id):
        rec = store.get_file(file_id)
        if rec is None:
            raise ApiError(404, "NOT_FOUND", "File not found", {"file_id": file_id})
        return jsonify(file_detail(rec))

    @app.get(f"{API}/files/<file_id>/download")
    @require_auth
    def download(file_id):
        rec = store.get_file(file_id)
        path = os.path.join(store.blob_dir, rec["path"]) if rec else None
        if rec is None or not os.path.isfile(path):
            raise ApiError(404, "NOT_FOUND", "File not found", {"file_id": file_id})
        log.info("file downloaded: %s by %s", file_id, g.user["username"])
        return send_file(path, mimetype=rec["content_type"], as_attachment=True,
                         download_name=rec["filename"], conditional=True, etag=rec["checksum"][7:])

    @app.delete(f"{API}/files/<file_id>")
    @require_auth
    def delete(file_id):
        rec = owned_file(file_id)
        if store.delete_file(file_id) is None:
            raise ApiError(404, "NOT_FOUND", "File not found", {"file_id": file_id})
        try:
            os.remove(os.path.join(store.blob_dir, rec["path"]))
        except FileNotFoundError:
            pass
        log.info("file deleted: %s by %s", file_id, g.user["username"])
        return jsonify({"success": True, "message": "File deleted successfully", "file_id": file_id})

    @app.patch(f"{API}/files/<file_id>")
    @require_auth
    def update(file_id):
        rec = owned_file(file_id)
        data = json_object()
        description = check_description(data["description"]) if "description" in data else rec["description"]
        tags = parse_tags(data["tags"]) if "tags" in data else rec["tags"]
        updated = store.update_file(file_id, description, tags)
        if updated is None:
            raise ApiError(404, "NOT_FOUND", "File not found", {"file_id": file_id})
        log.info("file metadata updated: %s by %s", file_id, g.user["username"])
        return jsonify({"success": True, "message": "File metadata updated successfully",
                        "file": file_detail(updated)})

    return app
