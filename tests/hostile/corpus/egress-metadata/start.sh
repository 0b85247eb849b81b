#!/usr/bin/env bash
cd "$(dirname "$0")"
python metadata.py &
exec python app.py
