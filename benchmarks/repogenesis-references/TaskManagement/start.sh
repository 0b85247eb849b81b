#!/usr/bin/env bash
# Start the Task Management microservice (foreground).
# Configuration (environment): PORT (default 8080), HOST (default 0.0.0.0),
# DATABASE_URL (sqlite:///path/to/file.db or sqlite:///:memory:) or DATABASE_PATH, LOG_LEVEL.
cd "$(dirname "$0")"
export PORT="${PORT:-8080}"
exec python app.py
