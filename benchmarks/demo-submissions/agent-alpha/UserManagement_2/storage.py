import hashlib
import os

USERS = {}
TOKENS = {}
_counter = [0]


def new_id():
    _counter[0] += 1
    return _counter[0]


def hash_pw(password, salt=None):
    salt = salt or os.urandom(8).hex()
    return salt, hashlib.sha256((salt + password).encode()).hexdigest()


def find_by_name(username):
    for user in USERS.values():
        if user["username"] == username:
            return user
    return None


def to_json(user):
    return {"id": user["id"], "username": user["username"], "email": user["email"]}
