#!/usr/bin/env bash
set -e
cd "$(dirname "$0")"
exec uvicorn server:app --host 127.0.0.1 --port "${PORT:-8084}"
