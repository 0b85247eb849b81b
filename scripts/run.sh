#!/usr/bin/env bash
# `make run`: set up, migrate, import the demo benchmark, seed the evaluated demo systems, then serve the
# site on http://127.0.0.1:8000 with a Celery worker (embedded transport unless CELERY_BROKER_URL is set).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
PY=.venv/bin/python
$PY manage.py migrate --noinput -v0
$PY manage.py collectstatic --noinput -v0
$PY manage.py import_benchmark benchmarks/demo
$PY manage.py import_reported benchmarks/reported/repogenesis-verified.toml
$PY manage.py seed_demo
CONCURRENCY=${EVALUATION_TASK_CONCURRENCY:-2}
.venv/bin/celery -A config worker --loglevel=INFO --concurrency="$CONCURRENCY" --without-gossip --without-mingle \
  --without-heartbeat --hostname="worker@%h" --beat &
WORKER=$!
trap 'kill $WORKER 2>/dev/null; wait $WORKER 2>/dev/null' EXIT INT TERM
echo "site: http://127.0.0.1:8000  (Ctrl-C stops the site and the worker)"
.venv/bin/gunicorn config.wsgi --bind 127.0.0.1:8000 --workers 2 --timeout 120 --access-logfile -
