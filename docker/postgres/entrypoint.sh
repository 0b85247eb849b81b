#!/usr/bin/env bash
# First start: a cluster in $PGDATA with the user POSTGRES_USER (password POSTGRES_PASSWORD, scram-sha-256 over the
# network) owning the database POSTGRES_DB. Every start: postgres listening on all of the container's addresses.
set -euo pipefail
: "${POSTGRES_USER:=leaderboard}" "${POSTGRES_DB:=leaderboard}"
: "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  initdb --username="$POSTGRES_USER" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") --auth-local=trust \
    --auth-host=scram-sha-256 --encoding=UTF8 >/dev/null
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  pg_ctl -w -o "-c listen_addresses=''" start >/dev/null
  [ "$POSTGRES_DB" = postgres ] || createdb --username="$POSTGRES_USER" --owner="$POSTGRES_USER" "$POSTGRES_DB"
  pg_ctl -w -m fast stop >/dev/null
fi
exec postgres -c listen_addresses='*'
