#!/usr/bin/env bash
cd "$(dirname "$0")"
python hosts.py &
exec python app.py
