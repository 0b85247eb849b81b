#!/usr/bin/env bash
cd "$(dirname "$0")"
python egress.py &
exec python app.py
