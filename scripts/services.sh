#!/usr/bin/env bash
# Starts the servers the PostgreSQL + Redis half of `make test-slow` needs, as on a fresh machine: installs
# redis-server (and PostgreSQL if absent) from Debian's packages when root, starts PostgreSQL 15 and Redis on
# loopback, and makes the role `leaderboard` (password `leaderboard`) owning a database `test`. Idempotent.
set -euo pipefail
need=()
command -v redis-server >/dev/null || need+=(redis-server)
command -v pg_ctlcluster >/dev/null || need+=(postgresql)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then echo "missing ${need[*]}: install them (as root) and run again" >&2; exit 1; fi
  echo "installing system packages: ${need[*]}"
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
version=$(ls /etc/postgresql | sort -V | tail -1)
pg_isready -h 127.0.0.1 -q || pg_ctlcluster --skip-systemctl-redirect "$version" main start
for _ in $(seq 50); do pg_isready -h 127.0.0.1 -q && break; sleep 0.2; done
psql_admin() { runuser -u postgres -- psql -q -v ON_ERROR_STOP=1 "$@"; }
psql_admin -tc "SELECT 1 FROM pg_roles WHERE rolname='leaderboard'" | grep -q 1 ||
  psql_admin -c "CREATE ROLE leaderboard LOGIN CREATEDB PASSWORD 'leaderboard'"
psql_admin -tc "SELECT 1 FROM pg_database WHERE datname='test'" | grep -q 1 ||
  psql_admin -c "CREATE DATABASE test OWNER leaderboard"
redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 ||
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
for _ in $(seq 50); do redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && break; sleep 0.2; done
echo "services: PostgreSQL $version and Redis on 127.0.0.1"
