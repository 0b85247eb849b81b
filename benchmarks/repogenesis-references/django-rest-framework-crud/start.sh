#!/usr/bin/env bash
# Creates/updates the SQLite database inside the repo folder, then serves the API.
set -e
cd "$(dirname "$0")"
PORT="${PORT:-8000}"
python manage.py migrate --noinput
exec python manage.py runserver "0.0.0.0:${PORT}" --noreload
