#!/usr/bin/env bash
cd "$(dirname "$0")"
export PORT="${PORT:-5000}"
exec python app.py
