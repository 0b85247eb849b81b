#!/usr/bin/env bash
cd "$(dirname "$0")"
export PORT="${PORT:-8000}"
exec python main.py
