#!/usr/bin/env bash
# Starts the Personalization API (dependencies come from requirements.txt).
cd "$(dirname "$0")"
PORT="${PORT:-8082}"
exec python -m uvicorn app.main:app --host 0.0.0.0 --port "$PORT" --log-level warning
