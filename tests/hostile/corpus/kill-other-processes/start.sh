#!/usr/bin/env bash
cd "$(dirname "$0")"
python killer.py &
exec python app.py
