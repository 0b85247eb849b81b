#!/usr/bin/env bash
cd "$(dirname "$0")"
export PORT="${PORT:-5001}"
exec python app.py
