"""Password hashing (PBKDF2-SHA256, stdlib only)."""
import base64
import hashlib
import hmac
import secrets

_ALGO = "pbkdf2_sha256"
_ITERATIONS = 100_000


def get_password_hash(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, _ITERATIONS)
    return "$".join([_ALGO, str(_ITERATIONS), base64.b64encode(salt).decode(), base64.b64encode(digest).decode()])


def verify_password(password: str, hashed: str) -> bool:
    try:
        algo, iterations, salt_b64, digest_b64 = hashed.split("$")
        if algo != _ALGO:
            return False
        digest = hashlib.pbkdf2_hmac("sha256", password.encode(), base64.b64decode(salt_b64), int(iterations))
        return hmac.compare_digest(digest, base64.b64decode(digest_b64))
    except (ValueError, TypeError):
        return False
