#!/usr/bin/env bash
# The release steps, run once per deploy before the new web and worker processes start (scripts/run.sh, the site
# image's `release` role, docs/deploy.md): apply the database migrations, then collect the static files (hashed
# names plus gzip and brotli copies under STATIC_ROOT when DJANGO_DEBUG=0: whitenoise serves them compressed and
# caches the hashed ones for a year and more). Idempotent: an unchanged release migrates nothing and copies nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-.venv/bin/python}"
"$PY" manage.py migrate --noinput -v0
"$PY" manage.py createcachetable -v0  # the throttles' cache table (settings.THROTTLE_CACHE_ALIAS)
"$PY" manage.py collectstatic --noinput -v0
