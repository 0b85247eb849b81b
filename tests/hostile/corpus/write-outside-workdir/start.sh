#!/usr/bin/env bash
cd "$(dirname "$0")"
python writer.py &
exec python app.py
