#!/usr/bin/env bash
cd "$(dirname "$0")"
PORT="${PORT:-8081}"
exec python -m uvicorn app.main:app --host 0.0.0.0 --port "$PORT" --log-level warning
