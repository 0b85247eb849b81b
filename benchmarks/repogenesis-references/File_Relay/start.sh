#!/usr/bin/env bash
# Starts the File Relay service. Data (SQLite metadata + uploaded files) lives in ./data unless
# FILE_RELAY_DATA_DIR says otherwise.
cd "$(dirname "$0")"
export PORT="${PORT:-8085}"
exec python -m file_relay
