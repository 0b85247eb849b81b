"""Service configuration."""
import os

APP_NAME = "Personalization API"
APP_VERSION = "1.0.0"
API_PREFIX = "/api/v1"
CONTENT_TYPES = ("post", "article", "product", "video")
LIKE_ACTIONS = ("like", "unlike")
HISTORY_ACTIONS = ("view", "search", "share", "download")
DEFAULT_PORT = int(os.environ.get("PORT", "8082"))
