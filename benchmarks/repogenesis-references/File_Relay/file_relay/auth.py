"""Password hashing and HS256 JSON Web Tokens (stdlib only)."""
import base64
import hashlib
import hmac
import json
import os
import secrets
import time

PBKDF2_ITERATIONS = 120_000
TOKEN_TTL_SECONDS = int(os.environ.get("FILE_RELAY_TOKEN_TTL", "3600"))


def hash_password(password):
    salt = secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, PBKDF2_ITERATIONS)
    return f"pbkdf2_sha256${PBKDF2_ITERATIONS}${salt.hex()}${digest.hex()}"


def verify_password(password, stored):
    try:
        algo, iterations, salt_hex, digest_hex = stored.split("$")
        if algo != "pbkdf2_sha256":
            return False
        digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), bytes.fromhex(salt_hex), int(iterations))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(digest.hex(), digest_hex)


def _b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class TokenError(Exception):
    pass


class TokenSigner:
    def __init__(self, secret):
        self.secret = secret

    def issue(self, user_id, username):
        now = int(time.time())
        header = {"alg": "HS256", "typ": "JWT"}
        payload = {"sub": user_id, "username": username, "iat": now, "exp": now + TOKEN_TTL_SECONDS,
                   "jti": secrets.token_hex(8)}
        signing_input = _b64(json.dumps(header, separators=(",", ":")).encode()) + "." + \
            _b64(json.dumps(payload, separators=(",", ":")).encode())
        sig = hmac.new(self.secret, signing_input.encode("ascii"), hashlib.sha256).digest()
        return signing_input + "." + _b64(sig)

    def verify(self, token):
        parts = token.split(".")
        if len(parts) != 3:
            raise TokenError("Malformed token")
        signing_input = parts[0] + "." + parts[1]
        expected = hmac.new(self.secret, signing_input.encode("ascii", "replace"), hashlib.sha256).digest()
        try:
            sig = _unb64(parts[2])
            header = json.loads(_unb64(parts[0]))
            payload = json.loads(_unb64(parts[1]))
        except (ValueError, TypeError):
            raise TokenError("Malformed token")
        if not hmac.compare_digest(sig, expected):
            raise TokenError("Invalid token signature")
        if not isinstance(header, dict) or header.get("alg") != "HS256" or not isinstance(payload, dict):
            raise TokenError("Unsupported token")
        if not isinstance(payload.get("exp"), int) or payload["exp"] < time.time():
            raise TokenError("Token expired")
        return payload


def load_secret(data_dir):
    """The signing secret: $FILE_RELAY_SECRET, else one generated once and kept in the data directory."""
    env = os.environ.get("FILE_RELAY_SECRET")
    if env:
        return env.encode("utf-8")
    path = os.path.join(data_dir, "secret.key")
    try:
        with open(path, "rb") as fh:
            secret = fh.read()
        if len(secret) >= 32:
            return secret
    except FileNotFoundError:
        pass
    secret = secrets.token_bytes(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(secret)
    return secret
