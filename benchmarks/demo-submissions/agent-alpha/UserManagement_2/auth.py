import uuid
from functools import wraps

from flask import g, jsonify, request

from storage import TOKENS, USERS

TOKEN_HEADER = "X-Auth-Token"


def issue_token(user_id):
    token = uuid.uuid4().hex
    TOKENS[token] = user_id
    return token


def token_required(fn):
    @wraps(fn)
    def inner(*args, **kwargs):
        token = request.headers.get(TOKEN_HEADER, "").replace("Bearer ", "")
        user_id = TOKENS.get(token)
        if user_id is None or user_id not in USERS:
            return jsonify({"error": "unauthorized"}), 401
        g.current_user = USERS[user_id]
        return fn(*args, **kwargs)
    return inner
