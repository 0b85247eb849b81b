"""Configuration taken from environment variables."""
import os
import secrets

APP_VERSION = "1.0.0"
API_PREFIX = "/api/v1"
# SQLite database file; ":memory:" keeps everything in process memory.
DATABASE_URL = os.environ.get("DATABASE_URL", ":memory:")
JWT_SECRET = os.environ.get("JWT_SECRET") or secrets.token_hex(32)
JWT_EXPIRES_IN = int(os.environ.get("JWT_EXPIRES_IN", "3600"))
