#!/usr/bin/env bash
set -e
cd "$(dirname "$0")"
exec python manage.py runserver "127.0.0.1:${PORT:-8082}" --noreload
