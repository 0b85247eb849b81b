#!/usr/bin/env bash
cd "$(dirname "$0")"
export PORT="${PORT:-8083}"
exec python app.py
