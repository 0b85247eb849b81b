#!/usr/bin/env bash
set -e
cd "$(dirname "$0")"
python buffers.py
exec python app.py
