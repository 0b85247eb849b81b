#!/usr/bin/env bash
cd "$(dirname "$0")"
export PORT="${PORT:-8080}"
exec python app.py
