#!/usr/bin/env bash
set -euo pipefail
cd "$(dirname "$0")"
PORT="${PORT:-8082}"
exec python manage.py runserver "0.0.0.0:${PORT}" --noreload --skip-checks
