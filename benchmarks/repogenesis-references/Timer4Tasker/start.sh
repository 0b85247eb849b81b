#!/usr/bin/env bash
# Start the Timer4Tasker service (foreground).
cd "$(dirname "$0")"
export PORT="${PORT:-8080}"
exec python app.py
