"""Synapse Message Service (benchmark version): in-memory users, tokens and room messages."""
import os
import re
import secrets
import threading
import time
from datetime import datetime, timezone

from flask import Flask, jsonify, request

app = Flask(__name__)
SERVER_NAME = "example.org"
TOKEN_TTL = 3600

lock = threading.Lock()
users = {}       # username -> {"password", "display_name", "user_id"}
tokens = {}      # token -> (user_id, expires_at)
rooms = {}       # room_id -> [event]
event_counter = [0]

ROOM_RE = re.compile(r"^![A-Za-z0-9]+:[^:]+$")


def err(status, code, message):
    return jsonify({"errcode": code, "error": message}), status


def json_body():
    data = request.get_json(silent=True)
    return data if isinstance(data, dict) else None


def is_str(v, lo=None, hi=None):
    if not isinstance(v, str):
        return False
    if lo is not None and len(v) < lo:
        return False
    if hi is not None and len(v) > hi:
        return False
    return True


def current_user():
    auth = request.headers.get("Authorization", "")
    if not auth.startswith("Bearer "):
        return None
    tok = auth[len("Bearer "):].strip()
    with lock:
        entry = tokens.get(tok)
        if not entry:
            return None
        user_id, exp = entry
        if exp < time.time():
            tokens.pop(tok, None)
            return None
        return user_id


@app.get("/")
def root():
    return jsonify({"service": "synapse-benchmark"})


@app.get("/health")
def health():
    now = datetime.now(timezone.utc).replace(microsecond=0)
    return jsonify({"status": "ok", "service": "synapse-benchmark",
                    "time": now.strftime("%Y-%m-%dT%H:%M:%SZ")})


@app.post("/register")
def register():
    data = json_body()
    if data is None:
        return err(400, "M_BAD_JSON", "Request body must be a JSON object")
    allowed = {"username", "password", "display_name"}
    if set(data) - allowed:
        return err(400, "M_BAD_JSON", "Unexpected fields")
    username, password = data.get("username"), data.get("password")
    if not is_str(username, 3, 64) or ":" in username or "@" in username:
        return err(400, "M_INVALID_USERNAME", "username must be 3..64 characters")
    if not is_str(password, 6, 128):
        return err(400, "M_INVALID_PASSWORD", "password must be 6..128 characters")
    if "display_name" in data and not is_str(data["display_name"], 1, 128):
        return err(400, "M_BAD_JSON", "display_name must be 1..128 characters")
    user_id = f"@{username}:{SERVER_NAME}"
    with lock:
        if username in users:
            return err(409, "M_USER_IN_USE", "username already taken")
        users[username] = {"password": password, "display_name": data.get("display_name", username),
                           "user_id": user_id}
    return jsonify({"user_id": user_id}), 201


@app.post("/login")
def login():
    data = json_body()
    if data is None:
        return err(400, "M_BAD_JSON", "Request body must be a JSON object")
    if set(data) - {"username", "password"}:
        return err(400, "M_BAD_JSON", "Unexpected fields")
    username, password = data.get("username"), data.get("password")
    if not isinstance(username, str) or not isinstance(password, str):
        return err(400, "M_BAD_JSON", "username and password are required strings")
    with lock:
        user = users.get(username)
        if not user or not secrets.compare_digest(user["password"], password):
            return err(401, "M_FORBIDDEN", "invalid username or password")
        tok = "syt_" + secrets.token_urlsafe(24)
        tokens[tok] = (user["user_id"], time.time() + TOKEN_TTL)
    return jsonify({"access_token": tok, "token_type": "Bearer", "expires_in": TOKEN_TTL})


@app.route("/rooms/<path:room_id>/messages", methods=["POST"])
def send_message(room_id):
    user_id = current_user()
    if not user_id:
        return err(401, "M_UNKNOWN_TOKEN", "missing or invalid access token")
    if not ROOM_RE.match(room_id):
        return err(400, "M_INVALID_PARAM", "invalid room_id")
    data = json_body()
    if data is None or set(data) != {"type", "content"}:
        return err(400, "M_BAD_JSON", "body must contain exactly type and content")
    if data["type"] != "m.text":
        return err(400, "M_BAD_JSON", "type must be m.text")
    content = data["content"]
    if not isinstance(content, dict) or set(content) != {"body"} or not is_str(content["body"], 1, 4000):
        return err(400, "M_BAD_JSON", "content.body must be a 1..4000 character string")
    ts = int(time.time() * 1000)
    with lock:
        event_counter[0] += 1
        event_id = "$" + secrets.token_hex(8) + str(event_counter[0])
        event = {"event_id": event_id, "sender": user_id, "type": "m.text",
                 "content": {"body": content["body"]}, "ts": ts}
        rooms.setdefault(room_id, []).append(event)
    return jsonify({"event_id": event_id, "room_id": room_id, "ts": ts})


@app.route("/rooms/<path:room_id>/messages", methods=["GET"])
def list_messages(room_id):
    user_id = current_user()
    if not user_id:
        return err(401, "M_UNKNOWN_TOKEN", "missing or invalid access token")
    if not ROOM_RE.match(room_id):
        return err(400, "M_INVALID_PARAM", "invalid room_id")
    raw = request.args.get("limit", "20")
    try:
        limit = int(raw)
    except ValueError:
        return err(400, "M_INVALID_PARAM", "limit must be an integer")
    if not 1 <= limit <= 100:
        return err(400, "M_INVALID_PARAM", "limit must be in 1..100")
    with lock:
        events = list(rooms.get(room_id, []))
    page = events[-limit:] if limit < len(events) else events
    next_cursor = str(len(events) - len(page)) if len(page) < len(events) else None
    return jsonify({"room_id": room_id, "messages": page, "next_cursor": next_cursor})


if __name__ == "__main__":
    port = int(os.environ.get("PORT") or os.environ.get("SERVICE_PORT") or 8080)
    app.run(host="0.0.0.0", port=port, threaded=True)
