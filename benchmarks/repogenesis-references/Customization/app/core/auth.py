"""Bearer-token authentication.

Tokens are issued by an external identity service, so this service only identifies the caller:
a JWT-shaped token contributes its `sub` / `user_id` claim, any other opaque token is mapped to
a stable pseudonymous user id derived from its hash.
"""
import base64
import hashlib
import json
from typing import Optional

from fastapi import Request

from .errors import ApiError


def _jwt_subject(token: str) -> Optional[str]:
    parts = token.split(".")
    if len(parts) != 3:
        return None
    try:
        payload = json.loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))
    except (ValueError, TypeError):
        return None
    if not isinstance(payload, dict):
        return None
    for claim in ("user_id", "sub", "uid", "id"):
        value = payload.get(claim)
        if isinstance(value, (str, int)) and str(value):
            return str(value)
    return None


def _token(request: Request) -> Optional[str]:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise ApiError(401, "Invalid authorization header, expected 'Bearer <token>'",
                       headers={"WWW-Authenticate": "Bearer"})
    return token


def user_for_token(token: str) -> str:
    return _jwt_subject(token) or "user_" + hashlib.sha256(token.encode()).hexdigest()[:16]


def require_user(request: Request) -> str:
    token = _token(request)
    if token is None:
        raise ApiError(401, "Authentication required", headers={"WWW-Authenticate": "Bearer"})
    return user_for_token(token)


def optional_user(request: Request) -> Optional[str]:
    try:
        token = _token(request)
    except ApiError:
        return None
    return user_for_token(token) if token else None
