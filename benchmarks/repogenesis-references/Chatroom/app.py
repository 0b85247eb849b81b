"""Web Chatroom Service: in-memory users, rooms and messages behind /api/v1."""
import hashlib
import os
import re
import secrets
import threading
import uuid
from datetime import datetime, timezone

from flask import Flask, jsonify, request

SERVICE_NAME = "chatroom"
VERSION = "1.0.0"
USERNAME_RE = re.compile(r"^[A-Za-z0-9_]{3,32}$")

app = Flask(__name__)
app.json.ensure_ascii = False
lock = threading.Lock()

users = {}        # username -> {"id", "username", "salt", "pw_hash"}
tokens = {}       # token -> username
rooms = {}        # room_id -> {"id", "name", "created_at", "members": set()}
room_names = {}   # name -> room_id
messages = {}     # room_id -> list of message dicts


def now_iso():
    return datetime.now(timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z")


def parse_iso(value):
    v = value.strip()
    if v.endswith("Z") or v.endswith("z"):
        v = v[:-1] + "+00:00"
    dt = datetime.fromisoformat(v)
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt


def error(status, message):
    return jsonify({"error": message, "detail": message}), status


def hash_pw(password, salt):
    return hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, 10000).hex()


def json_body():
    data = request.get_json(silent=True)
    return data if isinstance(data, dict) else None


def current_user():
    auth = request.headers.get("Authorization", "")
    parts = auth.split(None, 1)
    if len(parts) != 2 or parts[0].lower() != "bearer":
        return None
    return tokens.get(parts[1].strip())


def parse_int(name, default, lo, hi):
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        val = int(raw)
    except ValueError:
        raise ValueError(f"{name} must be an integer")
    if val < lo or (hi is not None and val > hi):
        raise ValueError(f"{name} out of range")
    return val


@app.get("/")
def index():
    return jsonify({"service": SERVICE_NAME, "version": VERSION, "base_path": "/api/v1"})


@app.get("/api/v1/health")
def health():
    return jsonify({"status": "ok", "service": SERVICE_NAME, "version": VERSION})


@app.post("/api/v1/auth/register")
def register():
    data = json_body()
    if data is None:
        return error(400, "JSON object body required")
    username, password = data.get("username"), data.get("password")
    if not isinstance(username, str) or not USERNAME_RE.match(username):
        return error(400, "username must be 3-32 characters of letters, digits or underscores")
    if not isinstance(password, str) or len(password) < 8:
        return error(400, "password must be at least 8 characters")
    with lock:
        if username in users:
            return error(409, "username already exists")
        salt = secrets.token_bytes(16)
        user = {"id": str(uuid.uuid4()), "username": username, "salt": salt, "pw_hash": hash_pw(password, salt)}
        users[username] = user
    return jsonify({"id": user["id"], "username": username}), 201


@app.post("/api/v1/auth/login")
def login():
    data = json_body()
    if data is None:
        return error(400, "JSON object body required")
    username, password = data.get("username"), data.get("password")
    if not isinstance(username, str) or not isinstance(password, str):
        return error(400, "username and password are required")
    user = users.get(username)
    if user is None or not secrets.compare_digest(user["pw_hash"], hash_pw(password, user["salt"])):
        return error(401, "invalid credentials")
    token = secrets.token_urlsafe(32)
    with lock:
        tokens[token] = username
    return jsonify({"access_token": token, "token_type": "bearer"})


@app.post("/api/v1/rooms")
def create_room():
    if current_user() is None:
        return error(401, "authentication required")
    data = json_body()
    if data is None:
        return error(400, "JSON object body required")
    name = data.get("name")
    if not isinstance(name, str) or not (1 <= len(name) <= 64):
        return error(400, "name must be 1-64 characters")
    with lock:
        if name in room_names:
            return error(409, "room name already exists")
        room = {"id": str(uuid.uuid4()), "name": name, "created_at": now_iso(), "members": set()}
        rooms[room["id"]] = room
        room_names[name] = room["id"]
        messages[room["id"]] = []
    return jsonify({"id": room["id"], "name": name, "created_at": room["created_at"]}), 201


@app.get("/api/v1/rooms")
def list_rooms():
    try:
        page = parse_int("page", 1, 1, None)
        page_size = parse_int("page_size", 20, 1, 100)
    except ValueError as e:
        return error(400, str(e))
    with lock:
        all_rooms = [{"id": r["id"], "name": r["name"]} for r in rooms.values()]
    start = (page - 1) * page_size
    return jsonify({"rooms": all_rooms[start:start + page_size], "page": page,
                    "page_size": page_size, "total": len(all_rooms)})


def room_action(room_id):
    """Common checks: returns (username, room, None) or (None, None, error_response)."""
    username = current_user()
    if username is None:
        return None, None, error(401, "authentication required")
    room = rooms.get(room_id)
    if room is None:
        return None, None, error(404, "room not found")
    return username, room, None


@app.post("/api/v1/rooms/<room_id>/join")
def join_room(room_id):
    username, room, err = room_action(room_id)
    if err:
        return err
    with lock:
        room["members"].add(username)
    return jsonify({"joined": True})


@app.post("/api/v1/rooms/<room_id>/leave")
def leave_room(room_id):
    username, room, err = room_action(room_id)
    if err:
        return err
    with lock:
        room["members"].discard(username)
    return jsonify({"left": True})


@app.post("/api/v1/rooms/<room_id>/messages")
def send_message(room_id):
    username, room, err = room_action(room_id)
    if err:
        return err
    if username not in room["members"]:
        return error(403, "join the room first")
    data = json_body()
    if data is None:
        return error(400, "JSON object body required")
    content = data.get("content")
    if not isinstance(content, str) or not (1 <= len(content) <= 1000):
        return error(400, "content must be 1-1000 characters")
    with lock:
        msg = {"id": str(uuid.uuid4()), "room_id": room_id, "sender": username,
               "content": content, "timestamp": now_iso()}
        messages[room_id].append(msg)
    return jsonify(msg), 201


@app.get("/api/v1/rooms/<room_id>/messages")
def pull_messages(room_id):
    username, room, err = room_action(room_id)
    if err:
        return err
    if username not in room["members"]:
        return error(403, "join the room first")
    try:
        limit = parse_int("limit", 50, 1, 100)
    except ValueError as e:
        return error(400, str(e))
    since = request.args.get("since")
    since_dt = None
    if since:
        try:
            since_dt = parse_iso(since)
        except ValueError:
            return error(400, "since must be an ISO8601 timestamp")
    with lock:
        items = list(messages[room_id])
    if since_dt is not None:
        items = [m for m in items if parse_iso(m["timestamp"]) > since_dt]
    items = items[:limit]
    return jsonify({"messages": [{"id": m["id"], "sender": m["sender"], "content": m["content"],
                                  "timestamp": m["timestamp"]} for m in items]})


@app.errorhandler(404)
def not_found(_e):
    return error(404, "not found")


@app.errorhandler(405)
def not_allowed(_e):
    return error(405, "method not allowed")


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=int(os.environ.get("PORT", "8083")), threaded=True)
