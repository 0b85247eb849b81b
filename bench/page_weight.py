"""Cold home page in headless Chromium, as deployed: bytes transferred and DOMContentLoaded (issue 14 "A light page").

Usage: .venv/bin/python bench/page_weight.py [--repeat 5] [--systems 8] [--keep]

Builds a throw-away production site in a temporary VAR_DIR (DJANGO_DEBUG=0; scripts/release.sh: migrate +
collectstatic with hashed, gzip and brotli files), imports the demo benchmark, records `--systems` finished
submissions (tests.factories, through the real services) so every tab has rows and a radar chart, starts gunicorn
with config/gunicorn.py on loopback, then loads `/` `--repeat` times in Debian's Chromium (Playwright), each time in
a fresh browser context (empty cache). Prints per load and as medians: bytes transferred (the Resource Timing API's
transferSize: headers plus the encoded body, of the page and every resource), DOMContentLoaded and load (ms from
navigation start), and when the first radar chart is drawn. Targets: under 1.5 MB and DOMContentLoaded under 1 s.
"""
from __future__ import annotations

import argparse
import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--no-first-run", "--disable-sync"]
SEED = """
import django; django.setup()
from catalog.models import Split
from tests.factories import finished_submission
split = Split.objects.get(benchmark__name="demo", name="verified")
tasks = list(split.tasks.order_by("name").values_list("name", "tests_total"))
for i in range({systems}):
    scores = {{name: (max(0, total - (i + j) % (total + 1)), "passed" if (i + j) % 3 == 0 else "tests_failed", 1)
              for j, (name, total) in enumerate(tasks)}}
    finished_submission(split=split, system_name=f"Bench System {{i + 1}}", scores=scores)
"""
MEASURE = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const resources = performance.getEntriesByType("resource");
  return {transfer: nav.transferSize + resources.reduce((n, r) => n + r.transferSize, 0),
          decoded: nav.decodedBodySize + resources.reduce((n, r) => n + r.decodedBodySize, 0),
          ttfb: nav.responseStart - nav.startTime, html: nav.responseEnd - nav.startTime,
          dcl: nav.domContentLoadedEventEnd - nav.startTime, load: nav.loadEventEnd - nav.startTime,
          resources: resources.map(r => [r.name.replace(location.origin, ""), r.transferSize])};
}"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run(cmd: list[str], env: dict[str, str]) -> None:
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{proc.stdout}{proc.stderr}")


def site(var_dir: Path, port: int, systems: int) -> tuple[subprocess.Popen, dict[str, str]]:
    """Release, seed and start a production web role on 127.0.0.1:`port`. Returns (gunicorn process, its env)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_") and k not in ("PYTEST_VERSION",)}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", DJANGO_DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50),
               VAR_DIR=str(var_dir), ALLOWED_HOSTS="127.0.0.1", DJANGO_SECURE_SSL_REDIRECT="0", PYTHON=PY,
               GUNICORN_BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY="2", PYTHONPATH=str(ROOT),
               SUBMISSION_DAILY_QUOTA="100000")  # the seeded systems share one team
    t0 = time.perf_counter()
    _run(["scripts/release.sh"], env)
    _run([PY, "manage.py", "import_benchmark", "benchmarks/demo", "--skip-reference-check"], env)
    _run([PY, "-c", SEED.format(systems=systems)], env)
    print(f"release + demo import + {systems} systems: {time.perf_counter() - t0:.0f} s")
    web = subprocess.Popen([str(Path(PY).parent / "gunicorn"), "-c", "config/gunicorn.py", "config.wsgi"], cwd=ROOT,
                           env=env, stdout=subprocess.DEVNULL, stderr=open(var_dir / "gunicorn.err", "wb"))
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(f"http://127.0.0.1:{port}/", timeout=5).raise_for_status()
            return web, env
        except httpx.HTTPError:
            if web.poll() is not None or time.monotonic() > deadline:
                sys.exit("gunicorn did not answer: " + (var_dir / "gunicorn.err").read_text()[-3000:])
            time.sleep(0.3)


def measure(url: str, repeat: int) -> list[dict]:
    """Load `url` `repeat` times, each in a new context (cold cache). Returns MEASURE's figures per load, plus
    `chart`: ms from navigation start until the first radar chart's SVG exists."""
    from playwright.sync_api import sync_playwright

    loads = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        for _ in range(repeat):
            context = browser.new_context(viewport={"width": 1280, "height": 1100})
            page = context.new_page()
            page.goto(url, wait_until="load")
            page.wait_for_selector("#radar-python .main-svg")
            figures = page.evaluate(MEASURE)
            figures["chart"] = page.evaluate("() => performance.now()")  # upper bound: after the wait returned
            loads.append(figures)
            context.close()
        browser.close()
    return loads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--systems", type=int, default=8)
    parser.add_argument("--keep", action="store_true", help="keep the temporary VAR_DIR")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit("Debian's chromium is not installed: run `WITH_BROWSER=1 scripts/bootstrap.sh`")
    var_dir = Path(tempfile.mkdtemp(prefix="page-weight-", dir=ROOT / "var" if (ROOT / "var").is_dir() else None))
    port = _free_port()
    web, _ = site(var_dir, port, args.systems)
    try:
        loads = measure(f"http://127.0.0.1:{port}/", args.repeat)
    finally:
        web.terminate()
        web.wait(timeout=30)
        if not args.keep:
            subprocess.run(["rm", "-rf", str(var_dir)])
    for i, load in enumerate(loads, 1):
        print(f"load {i}: {load['transfer'] / 1e6:.3f} MB transferred ({load['decoded'] / 1e6:.3f} MB decoded), "
              f"first byte {load['ttfb']:.0f} ms, HTML {load['html']:.0f} ms, DOMContentLoaded {load['dcl']:.0f} ms, load {load['load']:.0f} ms, chart drawn by {load['chart']:.0f} ms")
    print("resources of the last load (bytes transferred):")
    for name, size in loads[-1]["resources"]:
        print(f"  {size:>9}  {name}")
    median = {key: statistics.median(load[key] for load in loads) for key in ("transfer", "ttfb", "dcl", "load", "chart")}
    print(json.dumps({"median_transfer_bytes": round(median["transfer"]), "median_ttfb_ms": round(median["ttfb"]),
                      "median_dcl_ms": round(median["dcl"]),
                      "median_load_ms": round(median["load"]), "median_chart_ms": round(median["chart"]),
                      "target_transfer_ok": median["transfer"] < 1.5e6, "target_dcl_ok": median["dcl"] < 1000}))


if __name__ == "__main__":
    main()
