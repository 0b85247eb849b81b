#!/usr/bin/env bash
cd "$(dirname "$0")"
touch .hostile-service-started  # an install-time daemon that sees this has outlived the install
sleep 1
exec python app.py
