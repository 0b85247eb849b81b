import hashlib
import os
import re
import secrets
import threading
from functools import wraps

from flask import Flask, g, jsonify, request

app = Flask(__name__)
lock = threading.Lock()
users = {}    # id -> {"id", "username", "email", "salt", "hash"}
tokens = {}   # token -> user id
state = {"next_id": 1}

USERNAME_RE = re.compile(r"^[A-Za-z0-9_]{3,32}$")
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+$")


def error(message, status):
    return jsonify({"error": message}), status


def hash_password(password, salt):
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 10_000).hex()


def public(user):
    return {"id": user["id"], "username": user["username"], "email": user["email"]}


def check_password(value):
    return isinstance(value, str) and len(value) >= 8


def check_email(value):
    return isinstance(value, str) and EMAIL_RE.match(value) is not None


def require_auth(view):
    @wraps(view)
    def wrapper(*args, **kwargs):
        header = request.headers.get("Authorization", "")
        scheme, _, token = header.partition(" ")
        user_id = tokens.get(token.strip()) if scheme.lower() == "bearer" else None
        if user_id is None or user_id not in users:
            return error("authentication required", 401)
        g.user = users[user_id]
        return view(*args, **kwargs)
    return wrapper


@app.get("/health")
def health():
    return jsonify({"status": "ok"})


@app.post("/auth/register")
def register():
    data = request.get_json(silent=True) or {}
    username = data.get("username")
    if not isinstance(username, str) or not USERNAME_RE.match(username):
        return error("invalid username", 400)
    if not check_password(data.get("password")):
        return error("password must be at least 8 characters", 400)
    if not check_email(data.get("email")):
        return error("invalid email", 400)
    with lock:
        if any(u["username"] == username for u in users.values()):
            return error("username already taken", 409)
        salt = secrets.token_bytes(16)
        user = {"id": state["next_id"], "username": username, "email": data["email"],
                "salt": salt, "hash": hash_password(data["password"], salt)}
        users[user["id"]] = user
        state["next_id"] += 1
    return jsonify(public(user)), 201


@app.post("/auth/login")
def login():
    data = request.get_json(silent=True) or {}
    username, password = data.get("username"), data.get("password")
    if not isinstance(username, str) or not isinstance(password, str):
        return error("username and password are required", 400)
    user = next((u for u in users.values() if u["username"] == username), None)
    if user is None or not secrets.compare_digest(user["hash"], hash_password(password, user["salt"])):
        return error("invalid credentials", 401)
    token = secrets.token_urlsafe(32)
    tokens[token] = user["id"]
    return jsonify({"token": token, "user": public(user)})


@app.get("/auth/me")
@require_auth
def me():
    return jsonify(public(g.user))


@app.get("/users")
@require_auth
def list_users():
    return jsonify([public(users[i]) for i in sorted(users)])


@app.get("/users/<int:user_id>")
@require_auth
def get_user(user_id):
    if user_id not in users:
        return error("user not found", 404)
    return jsonify(public(users[user_id]))


@app.put("/users/<int:user_id>")
@require_auth
def update_user(user_id):
    if user_id not in users:
        return error("user not found", 404)
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        return error("body must be a JSON object", 400)
    if "email" in data and not check_email(data["email"]):
        return error("invalid email", 400)
    if "password" in data and not check_password(data["password"]):
        return error("password must be at least 8 characters", 400)
    user = users[user_id]
    if "email" in data:
        user["email"] = data["email"]
    if "password" in data:
        user["salt"] = secrets.token_bytes(16)
        user["hash"] = hash_password(data["password"], user["salt"])
    return jsonify(public(user))


@app.delete("/users/<int:user_id>")
@require_auth
def delete_user(user_id):
    with lock:
        if users.pop(user_id, None) is None:
            return error("user not found", 404)
        for token in [t for t, uid in tokens.items() if uid == user_id]:
            del tokens[token]
    return "", 204


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=int(os.environ.get("PORT", "8080")))
