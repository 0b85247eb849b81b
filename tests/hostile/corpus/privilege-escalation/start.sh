#!/usr/bin/env bash
cd "$(dirname "$0")"
python escalate.py  # every attempt, before the service comes up
exec python app.py
