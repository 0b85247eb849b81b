#!/usr/bin/env bash
set -e
cd "$(dirname "$0")"
export PORT="${PORT:-8080}"
exec python app.py
