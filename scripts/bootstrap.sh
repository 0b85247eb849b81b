#!/usr/bin/env bash
# Set-up shared by `make run`, `make test` and CI: system packages (when root), the virtual environment
# and the Python dependencies. Idempotent and quiet when everything is already there; each slow first-run step says
# what it does (a fresh-user pass waited two silent minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
WITH_BROWSER="${WITH_BROWSER:-0}"

need=()
command -v bwrap >/dev/null || need+=(bubblewrap)
command -v ip >/dev/null || need+=(iproute2)
# (grep reads all of ldconfig's list: `grep -q` stops early, ldconfig dies of SIGPIPE and pipefail says "missing")
ldconfig -p 2>/dev/null | grep "libseccomp.so.2" >/dev/null || need+=(libseccomp2)  # the sandbox's seccomp filter (pyseccomp)
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
  echo "set-up: creating the virtual environment .venv (first run only)"
  python3 -m venv .venv
fi
if [ ! -x .venv/bin/uv ]; then
  .venv/bin/pip install -q "uv==0.13.8"
fi
# The site's secret key when SECRET_KEY is not set: generated once, private to this user, kept under VAR_DIR (never
# committed); config/settings.py only reads it.
var_dir="${VAR_DIR:-var}"
if [ -z "${SECRET_KEY:-}" ] && [ ! -s "$var_dir/secret_key" ]; then
  mkdir -p "$var_dir"
  (umask 077 && python3 -c 'import secrets; print(secrets.token_urlsafe(50))' >"$var_dir/secret_key")
fi

stamp=.venv/.requirements-$(cat requirements.txt requirements-dev.txt | sha256sum | cut -c1-16)
if [ ! -f "$stamp" ]; then
  echo "set-up: installing the Python packages of requirements-dev.txt (about a minute on the first run)"
  .venv/bin/uv pip install -q --python .venv/bin/python -r requirements-dev.txt
  rm -f .venv/.requirements-* && touch "$stamp"
fi

# plotly.js for the pages: a partial bundle with the four trace types the site draws (scripts/build-plotly.sh, from
# npm's plotly.js), built once and never committed; without node and npm, the plotly package's full dist instead.
if [ ! -s static/vendor/plotly-partial.min.js ]; then
  echo "set-up: building the pages' plotly.js bundle (first run only)"
  if command -v npm >/dev/null && scripts/build-plotly.sh >/dev/null; then
    :
  else
    echo "note: npm unavailable or the partial build failed; serving plotly's full dist (4.8 MB) instead" >&2
    mkdir -p static/vendor
    cp "$(.venv/bin/python -c 'import plotly, pathlib; print(pathlib.Path(plotly.__file__).parent / "package_data" / "plotly.min.js")')" \
      static/vendor/plotly-partial.min.js
  fi
fi

# The platform's local Maven repository (~/.m2/repository, copied read-only into the sandbox) holds what the demo's
# Java task builds and tests with, and the plugins of the platform's own hidden test build (core/engine/test_pom.py):
# resolved once from Maven Central by building the demo reference with its suite (trusted files only), then running
# those plugins' goals on it, so the sandbox's offline build and test run find every artifact on a fresh machine.
if command -v mvn >/dev/null; then
  m2stamp=.venv/.maven-seed-$(cat benchmarks/demo/InventoryService/pom.xml core/engine/test_pom.py | sha256sum | cut -c1-16)
  if [ ! -f "$m2stamp" ]; then
    echo "set-up: resolving the Java tasks' Maven artifacts into ~/.m2 (a few minutes on the first run)"
    seed=$(mktemp -d)
    cp -r benchmarks/demo/InventoryService/reference/. "$seed/"
    cp -r benchmarks/demo/InventoryService/src/test "$seed/src/test"
    goals=$(.venv/bin/python -c 'from core.engine.test_pom import seed_goals; print(" ".join(seed_goals()))')
    if (cd "$seed" && mvn -B -q test -Dmaven.test.failure.ignore=true >"$seed/build.log" 2>&1 &&
        mvn -B -q $goals -Dmaven.test.failure.ignore=true >>"$seed/build.log" 2>&1); then
      rm -f .venv/.maven-seed-* && touch "$m2stamp"
    else
      echo "warning: could not resolve the demo's Maven artifacts (see $seed/build.log): Java tasks will not build" >&2
    fi
    rm -rf "$seed/src" "$seed/target"
  fi
fi
