import hashlib
import os
import secrets

from flask import Flask, jsonify, request

app = Flask(__name__)

db = {"users": {}, "sessions": {}, "seq": 0}


def pw_hash(password):
    return hashlib.sha256(password.encode("utf-8")).hexdigest()


def user_view(u):
    return {"id": u["id"], "username": u["username"], "email": u["email"]}


def current_user():
    auth = request.headers.get("Authorization", "")
    if not auth.startswith("Bearer "):
        return None
    uid = db["sessions"].get(auth[len("Bearer "):])
    return db["users"].get(uid)


@app.route("/health", methods=["GET"])
def health():
    return jsonify({"status": "ok"})


@app.route("/auth/register", methods=["POST"])
def register():
    data = request.get_json(silent=True) or {}
    username = data.get("username", "")
    password = data.get("password", "")
    email = data.get("email", "")
    if not (isinstance(username, str) and 3 <= len(username) <= 32 and username.replace("_", "").isalnum()):
        return jsonify({"error": "bad username"}), 400
    if not isinstance(password, str) or len(password) < 8:
        return jsonify({"error": "bad password"}), 400
    if not isinstance(email, str) or email.count("@") != 1 or email.startswith("@") or email.endswith("@"):
        return jsonify({"error": "bad email"}), 400
    if any(u["username"] == username for u in db["users"].values()):
        return jsonify({"error": "taken"}), 409
    db["seq"] += 1
    user = {"id": db["seq"], "username": username, "email": email, "password": pw_hash(password)}
    db["users"][user["id"]] = user
    return jsonify(user_view(user)), 201


@app.route("/auth/login", methods=["POST"])
def login():
    data = request.get_json(silent=True) or {}
    if not data.get("username") or not data.get("password"):
        return jsonify({"error": "missing credentials"}), 400
    for user in db["users"].values():
        if user["username"] == data["username"] and user["password"] == pw_hash(data["password"]):
            token = secrets.token_hex(20)
            db["sessions"][token] = user["id"]
            return jsonify({"token": token, "user": user_view(user)})
    return jsonify({"error": "invalid credentials"}), 401


@app.route("/users", methods=["GET"])
def users():
    if current_user() is None:
        return jsonify({"error": "unauthorized"}), 401
    return jsonify([user_view(db["users"][k]) for k in sorted(db["users"])])


@app.route("/users/<int:user_id>", methods=["GET", "DELETE"])
def user(user_id):
    if current_user() is None:
        return jsonify({"error": "unauthorized"}), 401
    if user_id not in db["users"]:
        return jsonify({"error": "not found"}), 404
    if request.method == "DELETE":
        del db["users"][user_id]
        return "", 204
    return jsonify(user_view(db["users"][user_id]))


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=int(os.environ.get("PORT", "8080")))
