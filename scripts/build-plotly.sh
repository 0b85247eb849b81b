#!/usr/bin/env bash
# Build static/vendor/plotly-partial.min.js: a plotly.js partial bundle with only the trace types the site draws
# (scatter, scatterpolar: radar charts; bar: outcome breakdowns; heatmap: the task x system matrix), as the plotly.js
# README describes ("Modules": require plotly.js/lib/core, Plotly.register the traces, bundle the result).
#
# The plotly.js version is the one the Python plotly package ships (the figures are built by that package), pinned
# below. scripts/bootstrap.sh runs it once (about 1.2 MB minified, a quarter of the full 4.8 MB dist); the bundle is
# a build product, never committed (.gitignore). Rebuild after bumping plotly in requirements.txt: delete the file and
# run `make setup`.
# Needs node and npm (the npm registry); node_modules lives in a temporary folder, never in the checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
PLOTLY_JS_VERSION="${PLOTLY_JS_VERSION:-3.1.0}"   # = the plotly.js inside plotly==6.3.0 (its plotly.min.js header)
ESBUILD_VERSION="${ESBUILD_VERSION:-0.28.2}"
OUT="${OUT:-static/vendor/plotly-partial.min.js}"
TRACES=(bar heatmap scatterpolar)                  # scatter is in plotly.js/lib/core already

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
{
  echo "// plotly.js $PLOTLY_JS_VERSION partial bundle: core (scatter) + ${TRACES[*]} (scripts/build-plotly.sh)"
  echo "var Plotly = require('plotly.js/lib/core');"
  echo "Plotly.register(["
  for trace in "${TRACES[@]}"; do echo "  require('plotly.js/lib/$trace'),"; done
  echo "]);"
  echo "module.exports = Plotly;"
} >"$work/entry.js"
(cd "$work" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error \
  "plotly.js@$PLOTLY_JS_VERSION" "esbuild@$ESBUILD_VERSION" >/dev/null)
mkdir -p "$(dirname "$OUT")"
# The options of plotly.js's own esbuild config that these traces need: a browser `global`, the `stream` polyfill
# and a UMD-like global `Plotly` (the templates call window.Plotly).
(cd "$work" && npx esbuild entry.js --bundle --minify --format=iife --global-name=Plotly --target=es2018 \
  --define:global=window --alias:stream=stream-browserify --legal-comments=none --log-level=warning \
  --outfile=bundle.js)
{
  echo "/* plotly.js v$PLOTLY_JS_VERSION (MIT, Copyright Plotly, Inc.) partial bundle: scatter, ${TRACES[*]}."
  echo "   Built by scripts/build-plotly.sh with esbuild $ESBUILD_VERSION. */"
  cat "$work/bundle.js"
} >"$OUT"
echo "built $OUT ($(wc -c <"$OUT") bytes, $(gzip -9c "$OUT" | wc -c) gzipped)"
