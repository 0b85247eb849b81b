#!/usr/bin/env bash
# The workers of `make worker` and `make run`: one Celery worker for the teams' work (the default queue `celery`:
# uploads, endpoint runs, notification e-mails; EVALUATION_TASK_CONCURRENCY tasks at once) and one for the platform's
# background work (queue `background`: reference checks, the seeding and re-scoring runs, the recovery sweeps, the
# webhook deliveries; one task at once) with the beat scheduler. The queues and routes are config/settings.py's
# (CELERY_TASK_ROUTES): no upload waits behind background work, and a worker started without -Q still serves both.
#
# Each worker runs in a process group of its own. INT or TERM (Ctrl-C) stops both at once with Celery's cold
# shutdown (SIGQUIT) and SIGKILLs what is left of their groups after STOP_SECONDS (10): a task cut off is sent again
# by the recovery once its heartbeat is stale, and its claim keeps it from being scored twice. Then the sandboxes the
# stopped workers left are removed (`manage.py sandbox_sweep`).
set -euo pipefail
# Started in the background by a non-interactive shell (`make worker &`), INT and QUIT arrive ignored and bash cannot
# trap them: start again with their default handling (as scripts/run.sh does), so INT stops the workers as TERM does.
if [ "$(trap -p INT)" = "trap -- '' SIGINT" ] && [ -z "${WORKER_SH_SIGNALS_RESET:-}" ] \
   && env --default-signal=INT true 2>/dev/null; then
  WORKER_SH_SIGNALS_RESET=1 exec env --default-signal=INT,QUIT "$0" "$@"
fi
unset WORKER_SH_SIGNALS_RESET
set -m  # every worker in a process group of its own: the terminal's Ctrl-C reaches this script, which stops them
cd "$(dirname "$0")/.."
CELERY=.venv/bin/celery
COMMON=(-A config worker --loglevel=INFO --without-gossip --without-mingle --without-heartbeat)
STOP_SECONDS="${STOP_SECONDS:-10}"

$CELERY "${COMMON[@]}" --queues=celery --concurrency="${EVALUATION_TASK_CONCURRENCY:-2}" --hostname="worker@%h" &
TEAMS=$!
$CELERY "${COMMON[@]}" --queues=background --concurrency=1 --hostname="background@%h" --beat &
BACKGROUND=$!

stop() {
  trap - INT TERM
  kill -QUIT -- "-$TEAMS" "-$BACKGROUND" 2>/dev/null || true
  local deadline=$((SECONDS + STOP_SECONDS))
  while { kill -0 -- "-$TEAMS" || kill -0 -- "-$BACKGROUND"; } 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do
    sleep 0.2
  done
  kill -KILL -- "-$TEAMS" "-$BACKGROUND" 2>/dev/null || true
  wait 2>/dev/null || true
  # A worker stopped mid-evaluation leaves its sandbox (task folder, tmpfs and overlay mounts, namespace): remove
  # what no live worker owns, so nothing stays mounted under var/ (evaluation.tasks.sandbox_leftovers_remove).
  .venv/bin/python manage.py sandbox_sweep || true
}
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM
# One worker ended by itself (it refused to start, or crashed): stop the other and say so.
status=0
wait -n || status=$?
echo "a worker stopped (exit status $status): stopping the other" >&2
stop
exit "$status"
