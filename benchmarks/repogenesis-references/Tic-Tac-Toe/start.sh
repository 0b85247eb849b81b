#!/usr/bin/env bash
cd "$(dirname "$0")"
export PORT="${PORT:-8082}"
exec python app.py
