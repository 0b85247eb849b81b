#!/usr/bin/env bash
# Set-up shared by `make run`, `make test` and CI: system packages (when root), the virtual environment
# and the Python dependencies. Idempotent and quiet when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
WITH_BROWSER="${WITH_BROWSER:-0}"

need=()
command -v bwrap >/dev/null || need+=(bubblewrap)
command -v ip >/dev/null || need+=(iproute2)
[ -x /usr/bin/python3 ] || need+=(python3 python3-venv)
if [ "$WITH_BROWSER" = 1 ]; then command -v chromium >/dev/null || need+=(chromium); fi
if [ "${WITH_DOCKER:-0}" = 1 ]; then command -v dockerd >/dev/null || need+=(docker.io); fi
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "installing system packages: ${need[*]}"
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "warning: missing ${need[*]} and not root: the evaluator falls back to process-level isolation" >&2
  fi
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
if [ ! -x .venv/bin/uv ]; then
  .venv/bin/pip install -q "uv==0.13.8"
fi
stamp=.venv/.requirements-$(cat requirements.txt requirements-dev.txt | sha256sum | cut -c1-16)
if [ ! -f "$stamp" ]; then
  .venv/bin/uv pip install -q --python .venv/bin/python -r requirements-dev.txt
  rm -f .venv/.requirements-* && touch "$stamp"
fi
