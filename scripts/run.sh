#!/usr/bin/env bash
# `make run`: set up, migrate, import the demo benchmark and (when it can be had) RepoGenesis Verified, start the
# site on http://127.0.0.1:8000 with a Celery worker (embedded transport unless CELERY_BROKER_URL is set), then
# queue the seeding evaluations on the worker: the board fills in as they finish.
#
# RepoGenesis Verified comes from REPOGENESIS_SOURCE=<folder> when set, else from its pinned git commit when the
# internet is reachable; otherwise the site shows the demo benchmark only (and says so).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
PY=.venv/bin/python
REPO_URL=https://github.com/microsoft/DKI_LLM
REPO_COMMIT=c090b7d57e3996c8900e86fecd16085b27e07f29
MANIFEST=benchmarks/repogenesis/benchmark.json
scripts/release.sh  # migrate, collectstatic
$PY manage.py import_benchmark benchmarks/demo --skip-reference-check
$PY manage.py import_reported benchmarks/reported/repogenesis-verified.toml

CONCURRENCY=${EVALUATION_TASK_CONCURRENCY:-2}
if [ "$(id -u)" != 0 ] && [ "${EVALUATION_BACKEND:-local}" = local ] && [ "${EVALUATION_ALLOW_UNSANDBOXED:-0}" != 1 ]; then
  echo "note: the worker needs root, bubblewrap and iproute2 to sandbox submissions (or EVALUATION_BACKEND=docker);" \
       "without them it refuses to start and nothing is evaluated (EVALUATION_ALLOW_UNSANDBOXED=1: trusted code only)" >&2
fi
.venv/bin/celery -A config worker --loglevel=INFO --concurrency="$CONCURRENCY" --without-gossip --without-mingle \
  --without-heartbeat --hostname="worker@%h" --beat &
WORKER=$!
.venv/bin/gunicorn -c config/gunicorn.py --bind 127.0.0.1:8000 config.wsgi &  # WEB_CONCURRENCY workers (2)
WEB=$!
trap 'kill $WORKER $WEB 2>/dev/null; wait $WORKER $WEB 2>/dev/null' EXIT INT TERM
echo "site: http://127.0.0.1:8000  (Ctrl-C stops the site and the worker)"

$PY manage.py seed_demo --on-worker
IMPORTED=0
if [ -n "${REPOGENESIS_SOURCE:-}" ]; then
  $PY manage.py import_benchmark "$REPOGENESIS_SOURCE" --name repogenesis --manifest "$MANIFEST" --skip-reference-check \
    && IMPORTED=1
elif timeout 15 git ls-remote "$REPO_URL" HEAD >/dev/null 2>&1; then
  $PY manage.py import_benchmark "$REPO_URL" --commit "$REPO_COMMIT" --subdir RepoGenesis/repo --name repogenesis \
    --manifest "$MANIFEST" --skip-reference-check && IMPORTED=1
else
  echo "RepoGenesis Verified: not imported (no REPOGENESIS_SOURCE and $REPO_URL is not reachable): showing the demo only"
fi
if [ "$IMPORTED" = 1 ]; then
  $PY manage.py seed_references --benchmark repogenesis --on-worker
fi
# The reference checks (3 runs per task) go last: the board's seeds are queued before them.
$PY manage.py check_references --benchmark demo --on-worker
if [ "$IMPORTED" = 1 ]; then
  $PY manage.py check_references --benchmark repogenesis --on-worker
fi
wait $WEB
