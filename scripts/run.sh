#!/usr/bin/env bash
# `make run`: set up and migrate, then serve the site on http://127.0.0.1:$PORT (PORT, default 8000) with its workers
# (scripts/worker.sh: one for the teams' work, one for the background work; the embedded transport unless
# CELERY_BROKER_URL is set). Once it answers, the start-up work runs beside it: import the demo benchmark, the authors'
# published results and (when it can be had) RepoGenesis Verified, then queue the seeding evaluations and the
# reference checks for the background worker: the board fills in as they finish. Ctrl-C (INT) or TERM stops the
# site, the workers and the start-up work (each in a process group of its own) within seconds, whether it was started
# in the foreground or in the background (tests/test_make_run.py).
#
# RepoGenesis Verified comes from REPOGENESIS_SOURCE=<folder> when set, else from its pinned git commit when the
# internet is reachable; otherwise the site shows the demo benchmark only (and says so).
set -euo pipefail
# Started in the background by a non-interactive shell (`make run &`, a script), INT and QUIT arrive ignored, and bash
# can neither trap nor reset a signal ignored on entry (every child would inherit the ignored INT, worker.sh's trap
# included): start again with their default handling (coreutils env >= 8.31), so INT stops everything as TERM does.
if [ "$(trap -p INT)" = "trap -- '' SIGINT" ] && [ -z "${RUN_SH_SIGNALS_RESET:-}" ] \
   && env --default-signal=INT true 2>/dev/null; then
  RUN_SH_SIGNALS_RESET=1 exec env --default-signal=INT,QUIT "$0" "$@"
fi
unset RUN_SH_SIGNALS_RESET
cd "$(dirname "$0")/.."
PORT="${PORT:-8000}"
export SITE_URL="${SITE_URL:-http://127.0.0.1:$PORT}"  # the links of notification e-mails and webhooks
scripts/bootstrap.sh
PY=.venv/bin/python
REPO_URL=https://github.com/microsoft/DKI_LLM
REPO_COMMIT=c090b7d57e3996c8900e86fecd16085b27e07f29
MANIFEST=benchmarks/repogenesis/benchmark.json
if [ "${DJANGO_DEBUG:-1}" = 0 ]; then
  scripts/release.sh  # migrate, collectstatic: production settings serve only the collected, hashed files
else
  echo "set-up: migrating the database (var/db.sqlite3 unless DATABASE_URL is set)"
  $PY manage.py migrate --noinput -v0  # development serves static files from their folders: no collectstatic (~1 min)
  $PY manage.py createcachetable -v0  # the throttles' cache table (settings.THROTTLE_CACHE_ALIAS)
fi

# The start-up work, after the site answers: imports, then the seeds and reference checks queued for the workers.
startup() {
  set -e
  $PY manage.py import_benchmark benchmarks/demo --skip-reference-check
  $PY manage.py import_reported benchmarks/reported/repogenesis-verified.toml
  $PY manage.py seed_demo --on-worker
  local imported=0
  if [ -n "${REPOGENESIS_SOURCE:-}" ]; then
    $PY manage.py import_benchmark "$REPOGENESIS_SOURCE" --name repogenesis --manifest "$MANIFEST" \
      --skip-reference-check && imported=1
  elif timeout 15 git ls-remote "$REPO_URL" HEAD >/dev/null 2>&1; then
    $PY manage.py import_benchmark "$REPO_URL" --commit "$REPO_COMMIT" --subdir RepoGenesis/repo --name repogenesis \
      --manifest "$MANIFEST" --skip-reference-check && imported=1
  else
    echo "RepoGenesis Verified: not imported (no REPOGENESIS_SOURCE and $REPO_URL is not reachable): showing the demo only"
  fi
  if [ "$imported" = 1 ]; then
    $PY manage.py seed_references --benchmark repogenesis --on-worker
  fi
  # The reference checks (3 runs per task, one run per job) go last on the background queue: the board's seeds are
  # queued there before them. A team's upload never waits for either (it has the other worker).
  $PY manage.py check_references --benchmark demo --on-worker
  if [ "$imported" = 1 ]; then
    $PY manage.py check_references --benchmark repogenesis --on-worker
  fi
  echo "start-up work done: the board and the task health fill in as the background worker finishes"
}

if [ "$(id -u)" != 0 ] && [ "${EVALUATION_BACKEND:-local}" = local ] && [ "${EVALUATION_ALLOW_UNSANDBOXED:-0}" != 1 ]; then
  echo "note: the worker needs root, bubblewrap and iproute2 to sandbox submissions (or EVALUATION_BACKEND=docker);" \
       "without them it refuses to start and nothing is evaluated (EVALUATION_ALLOW_UNSANDBOXED=1: trusted code only)" >&2
fi

set -m  # from here every background job runs in a process group of its own
GROUPS_STARTED=()
stop() {
  trap - INT TERM EXIT
  # gunicorn's INT is its quick shutdown (gunicorn installs its handler even where INT was ignored); TERM for the
  # others, which no start can leave ignored: worker.sh stops its workers (cold shutdown, SIGKILL after 10 s), the
  # start-up work's shell and command end.
  [ "${#GROUPS_STARTED[@]}" -gt 0 ] && kill -INT -- "-${GROUPS_STARTED[0]}" 2>/dev/null || true
  for pid in "${GROUPS_STARTED[@]:1}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM
trap stop EXIT

.venv/bin/gunicorn -c config/gunicorn.py --bind "127.0.0.1:$PORT" config.wsgi &  # WEB_CONCURRENCY workers (2)
WEB=$!
GROUPS_STARTED+=("$WEB")
until (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; do
  kill -0 "$WEB" 2>/dev/null || { echo "the site did not start (is port $PORT taken? PORT=... make run)" >&2; exit 1; }
  sleep 0.2
done
echo "site: http://127.0.0.1:$PORT  (Ctrl-C stops the site and the workers)"
scripts/worker.sh &
GROUPS_STARTED+=("$!")
startup &
GROUPS_STARTED+=("$!")
wait "$WEB"
