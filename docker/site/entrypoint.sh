#!/usr/bin/env bash
# The site image's roles (docs/deploy.md):
#   release   migrations + collectstatic (scripts/release.sh): once per deploy, before web/worker/beat start
#   web       gunicorn with config/gunicorn.py (WEB_CONCURRENCY workers, access log on stdout)
#   worker    a Celery evaluation worker (EVALUATION_TASK_CONCURRENCY tasks at once); the local sandbox needs the
#             container privileged (network namespaces, bubblewrap, cgroups), or EVALUATION_BACKEND=docker
#   beat      Celery beat: the recovery of stalled runs and generations (exactly one per site)
#   manage    any manage.py command: `manage createsuperuser`, `manage rescore ...`
# web, beat and release run as the unprivileged user `leaderboard`; the worker as root (it leases sandbox users).
set -euo pipefail
cd /app
role="${1:-web}"
[ $# -gt 0 ] && shift
as_site() { HOME="$VAR_DIR" exec setpriv --reuid=leaderboard --regid=leaderboard --init-groups "$@"; }
mkdir -p "$VAR_DIR" && chown leaderboard:leaderboard "$VAR_DIR"
case "$role" in
  release) as_site scripts/release.sh ;;
  web)     as_site gunicorn -c config/gunicorn.py config.wsgi "$@" ;;
  worker)  exec celery -A config worker --loglevel=INFO --concurrency="${EVALUATION_TASK_CONCURRENCY:-2}" \
             --without-gossip --without-mingle --hostname="worker@%h" "$@" ;;
  beat)    as_site celery -A config beat --loglevel=INFO --schedule="$VAR_DIR/celerybeat-schedule" "$@" ;;
  manage)  as_site python manage.py "$@" ;;
  *)       echo "unknown role '$role': release, web, worker, beat or manage" >&2; exit 2 ;;
esac
