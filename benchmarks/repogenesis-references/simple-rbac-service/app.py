"""Simple RBAC Service: roles, role permissions, user role assignments; all in memory."""
import os
import threading
import uuid

from flask import Flask, jsonify, request

app = Flask(__name__)
lock = threading.Lock()
roles = {}        # role_id -> {"role_name": str, "permissions": [str]}
role_names = {}   # role_name -> role_id
user_roles = {}   # user_id -> [role_id]


def error(status, message):
    return jsonify({"status": "error", "message": message}), status


def body():
    data = request.get_json(silent=True)
    return data if isinstance(data, dict) else None


def string_list(value):
    return isinstance(value, list) and all(isinstance(v, str) and v != "" for v in value)


def add_unique(target, items):
    for item in items:
        if item not in target:
            target.append(item)


@app.errorhandler(404)
def not_found(_e):
    return error(404, "Resource not found")


@app.errorhandler(405)
def method_not_allowed(_e):
    return error(405, "Method not allowed")


@app.errorhandler(500)
def server_error(_e):
    return error(500, "Internal server error")


@app.get("/")
def index():
    return jsonify({"status": "success", "service": "simple-rbac-service"})


@app.post("/api/roles")
def create_role():
    data = body()
    if data is None:
        return error(400, "Request body must be a JSON object")
    name = data.get("role_name")
    if not isinstance(name, str) or not name.strip():
        return error(400, "role_name is required and must be a non-empty string")
    with lock:
        if name in role_names:
            return error(409, f"Role '{name}' already exists")
        role_id = uuid.uuid4().hex
        roles[role_id] = {"role_name": name, "permissions": []}
        role_names[name] = role_id
    return jsonify({"status": "success", "role_id": role_id, "role_name": name}), 200


@app.post("/api/roles/<role_id>/permissions")
def assign_permissions(role_id):
    data = body()
    with lock:
        role = roles.get(role_id)
        if role is None:
            return error(404, f"Role '{role_id}' not found")
        if data is None or not string_list(data.get("permissions")):
            return error(400, "permissions is required and must be an array of permission names")
        add_unique(role["permissions"], data["permissions"])
        perms = list(role["permissions"])
    return jsonify({"status": "success", "role_id": role_id, "permissions": perms}), 200


@app.post("/api/users/<user_id>/roles")
def assign_roles(user_id):
    data = body()
    if data is None or not string_list(data.get("role_ids")):
        return error(400, "role_ids is required and must be an array of role IDs")
    with lock:
        missing = [rid for rid in data["role_ids"] if rid not in roles]
        if missing:
            return error(404, f"Role(s) not found: {', '.join(missing)}")
        assigned = user_roles.setdefault(user_id, [])
        add_unique(assigned, data["role_ids"])
        result = list(assigned)
    return jsonify({"status": "success", "user_id": user_id, "role_ids": result}), 200


@app.get("/api/users/<user_id>/permissions")
def user_permissions(user_id):
    with lock:
        perms = []
        for rid in user_roles.get(user_id, []):
            role = roles.get(rid)
            if role:
                add_unique(perms, role["permissions"])
    return jsonify({"status": "success", "user_id": user_id, "permissions": perms}), 200


if __name__ == "__main__":
    port = int(os.environ.get("PORT") or os.environ.get("SERVICE_PORT") or 8080)
    app.run(host="0.0.0.0", port=port, threaded=True)
