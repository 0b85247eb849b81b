"""Signed bearer tokens and the FastAPI dependencies that resolve the current user."""
import base64
import hashlib
import hmac
import json
import time
from typing import Optional

from fastapi import Depends, HTTPException, Request, status
from sqlalchemy.orm import Session

from app.core.config import ACCESS_TOKEN_EXPIRE_SECONDS, SECRET_KEY
from app.core.database import get_db
from app.models.user import User


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(data: str) -> bytes:
    return base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))


def _sign(payload: str) -> str:
    return _b64(hmac.new(SECRET_KEY.encode(), payload.encode(), hashlib.sha256).digest())


def create_access_token(data: dict, expires_in: int = ACCESS_TOKEN_EXPIRE_SECONDS) -> str:
    body = dict(data)
    body["exp"] = int(time.time()) + expires_in
    payload = _b64(json.dumps(body, separators=(",", ":")).encode())
    return f"{payload}.{_sign(payload)}"


def create_user_access_token(user_id: int) -> str:
    return create_access_token({"sub": str(user_id)})


def decode_access_token(token: str) -> Optional[dict]:
    try:
        payload, signature = token.split(".")
    except ValueError:
        return None
    if not hmac.compare_digest(signature, _sign(payload)):
        return None
    try:
        data = json.loads(_unb64(payload))
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("exp", 0) < time.time():
        return None
    return data


def _bearer_token(request: Request) -> Optional[str]:
    header = request.headers.get("Authorization")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def _user_from_token(token: str, db: Session) -> Optional[User]:
    data = decode_access_token(token)
    if not data:
        return None
    try:
        user_id = int(data.get("sub"))
    except (TypeError, ValueError):
        return None
    return db.get(User, user_id)


def get_current_user(request: Request, db: Session = Depends(get_db)) -> User:
    token = _bearer_token(request)
    if token is None:
        # No credentials at all: rejected as forbidden.
        raise HTTPException(status_code=status.HTTP_403_FORBIDDEN, detail="Not authenticated")
    user = _user_from_token(token, db)
    if user is None:
        raise HTTPException(status_code=status.HTTP_401_UNAUTHORIZED, detail="Invalid or expired token",
                            headers={"WWW-Authenticate": "Bearer"})
    return user


def get_optional_user(request: Request, db: Session = Depends(get_db)) -> Optional[User]:
    token = _bearer_token(request)
    if token is None:
        return None
    return _user_from_token(token, db)
