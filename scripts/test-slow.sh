#!/usr/bin/env bash
# `make test-slow`, once scripts/services.sh runs PostgreSQL and Redis: the slow and docker suites, and alongside them
# the fast suites that touch the database again on PostgreSQL (they already ran on SQLite in `make test`). The two
# runs share no database (test_test / test_fastpg), no Redis database (0 / 1), no VAR_DIR (var/test / var/test-pg:
# a test counts the stored archives) and no temporary folder, so they can
# run at once: the slow suites mostly wait on sandboxed builds, and CI stays within its time (README "Tests"). The
# fast ones run at the lowest priority (nice 19), so the slow ones' time limits see the CPU they would alone.
# Exit status: the first failing run's, else 0. Arguments: the fast suites' pytest options (the Makefile's
# NO_DATABASE ignores).
set -uo pipefail
cd "$(dirname "$0")/.."
PG=postgres://leaderboard:leaderboard@127.0.0.1:5432
fast_log=$(mktemp /tmp/rg-fast-pg.XXXXXX.log)
rm -rf /tmp/rg-fast-pg-tmp
VAR_DIR="$PWD/var/test-pg" DATABASE_URL=$PG/fastpg CELERY_BROKER_URL=redis://127.0.0.1:6379/1 nice -n 19 \
    .venv/bin/python -m pytest -q -m "not slow and not docker" --basetemp=/tmp/rg-fast-pg-tmp "$@" \
    >"$fast_log" 2>&1 &
fast=$!
REQUIRE_SANDBOX=1 DATABASE_URL=$PG/test CELERY_BROKER_URL=redis://127.0.0.1:6379/0 \
    .venv/bin/python -m pytest -q -m "slow or docker"
slow_rc=$?
wait "$fast"
fast_rc=$?
echo "--- the fast suites on PostgreSQL (run alongside) ---"
cat "$fast_log"
rm -f "$fast_log"
rm -rf /tmp/rg-fast-pg-tmp
[ "$slow_rc" -ne 0 ] && exit "$slow_rc"
exit "$fast_rc"
