import re

from flask import Blueprint, g, jsonify, request

from auth import issue_token, token_required
from storage import TOKENS, USERS, find_by_name, hash_pw, new_id, to_json

bp = Blueprint("api", __name__)

NAME_OK = re.compile(r"^\w{3,32}$", re.ASCII)


def bad(msg, code=400):
    return jsonify({"error": msg}), code


def valid_email(value):
    return isinstance(value, str) and value.count("@") == 1 and all(value.split("@"))


def valid_password(value):
    return isinstance(value, str) and len(value) >= 8


@bp.route("/health")
def health():
    return jsonify({"status": "ok"})


@bp.route("/auth/register", methods=["POST"])
def register():
    body = request.get_json(silent=True) or {}
    name = body.get("username")
    if not isinstance(name, str) or not NAME_OK.match(name):
        return bad("invalid username")
    if not valid_password(body.get("password")):
        return bad("invalid password")
    if not valid_email(body.get("email")):
        return bad("invalid email")
    if find_by_name(name):
        return bad("username exists", 409)
    salt, digest = hash_pw(body["password"])
    user = {"id": new_id(), "username": name, "email": body["email"], "salt": salt, "pw": digest}
    USERS[user["id"]] = user
    return jsonify(to_json(user)), 201


@bp.route("/auth/login", methods=["POST"])
def login():
    body = request.get_json(silent=True) or {}
    if "username" not in body or "password" not in body:
        return bad("username and password required")
    user = find_by_name(body["username"])
    if not user or hash_pw(body["password"], user["salt"])[1] != user["pw"]:
        return bad("invalid credentials", 401)
    return jsonify({"token": issue_token(user["id"]), "user": to_json(user)})


@bp.route("/auth/me")
@token_required
def me():
    return jsonify(to_json(g.current_user))


@bp.route("/users")
@token_required
def list_users():
    return jsonify([to_json(USERS[k]) for k in sorted(USERS)])


@bp.route("/users/<int:user_id>", methods=["GET", "PUT", "DELETE"])
@token_required
def user_detail(user_id):
    user = USERS.get(user_id)
    if user is None:
        return bad("not found", 404)
    if request.method == "GET":
        return jsonify(to_json(user))
    if request.method == "DELETE":
        del USERS[user_id]
        for tok in [t for t, uid in TOKENS.items() if uid == user_id]:
            TOKENS.pop(tok)
        return "", 204
    body = request.get_json(silent=True) or {}
    if "email" in body and not valid_email(body["email"]):
        return bad("invalid email")
    if "password" in body and not valid_password(body["password"]):
        return bad("invalid password")
    if "email" in body:
        user["email"] = body["email"]
    if "password" in body:
        user["salt"], user["pw"] = hash_pw(body["password"])
    return jsonify(to_json(user))
