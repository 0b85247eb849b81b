import os
import secrets

# SQLite database URL. Default: an in-memory database shared by every connection of this process.
DATABASE_URL = os.environ.get("DATABASE_URL", "sqlite://")
# Signing key for access tokens; a random per-process key unless one is configured.
SECRET_KEY = os.environ.get("SECRET_KEY") or secrets.token_hex(32)
ACCESS_TOKEN_EXPIRE_SECONDS = int(os.environ.get("ACCESS_TOKEN_EXPIRE_SECONDS", "86400"))
API_PREFIX = "/api/v1"
