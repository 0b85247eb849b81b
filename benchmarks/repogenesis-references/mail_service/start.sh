#!/usr/bin/env bash
# Start the Mail Notification Service (foreground).
cd "$(dirname "$0")"
export PORT="${PORT:-8080}"
exec python app.py
