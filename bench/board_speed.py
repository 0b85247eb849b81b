"""The board's speed at scale (issue 14 "A fast board"): p50 / p99 latency and throughput of `/` and
`/api/v1/leaderboard/` with N systems x 30 tasks, served by gunicorn (config/gunicorn.py, 2 workers), against
whitenoise serving a static file of the same bytes.

Usage: .venv/bin/python bench/board_speed.py [--systems 10 1000] [--duration 10] [--connections 8] [--keep]

For each N: a throw-away production site in a temporary VAR_DIR (DJANGO_DEBUG=0, SQLite; scripts/release.sh:
migrate + collectstatic), a benchmark `bench` of 30 tasks (15 Python, 15 Java) with N systems, each with one
finished public run of 30 results, written with bulk_create (the run summaries through core.report.summarize, the
same code as the pipeline; 40 distinct score patterns, so the paired bootstrap of the significance groups runs over
40 distinct rows: see the note printed at the end). The cache is the production one, Redis (compose.yaml's
CACHE_URL; database 9 of 127.0.0.1:6379, emptied first: `scripts/services.sh` starts the server), shared by the two
workers; `--cache file` uses django's file-based cache instead (shared too; it compresses every entry with zlib, so
each hit inflates the page again) when no Redis runs. The board is computed once before measuring (a cold
request is timed apart). Each URL's bytes are written as a static file before gunicorn starts, and the load
generator (`wrk`, else a small httpx asyncio one) measures each for `--duration` seconds.

Targets: p99 under 100 ms at 1,000 systems; throughput at least 50% of the static file; 10 vs 1,000 rows: median
within 2x.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from prod_site import PY, free_port, gunicorn_start, release, run, site_env  # noqa: E402 (bench/ is not a package)

TASKS = 30
PATTERNS = 40
URLS = {"board page": "/?benchmark=bench", "board API": "/api/v1/leaderboard/?benchmark=bench"}

SEED = r'''
import datetime as dt, hashlib, time
import django; django.setup()
from django.db import transaction
from django.test import Client
from django.utils import timezone
from catalog.models import Benchmark, Split, System, Task, Team
from catalog.names import name_skeleton
from core.report import entry_from_result, summarize
from evaluation.models import EvaluationRun, RunPhase, RunStatus, TaskResult
from submissions.models import Submission

N, TASKS, PATTERNS = {systems}, {tasks}, {patterns}
t0 = time.perf_counter()
with transaction.atomic():
    bench = Benchmark.objects.create(name="bench", title="Bench", version=hashlib.sha256(b"bench").hexdigest(),
                                     storage_dir="")
    tasks = Task.objects.bulk_create([Task(benchmark=bench, name=f"Task{{k:02d}}", port=8000 + k, readme="r",
                                           language="python" if k % 2 else "java", tests_total=4,
                                           declared_endpoints=[{{"method": "GET", "path": f"/t{{k}}"}}])
                                      for k in range(TASKS)])
    split = Split.objects.create(benchmark=bench, name="verified")
    split.tasks.set(tasks)
    team = Team.objects.create(name="bench-team")
    systems = System.objects.bulk_create([System(team=team, name=f"Bench System {{i:04d}}",
                                                 name_skeleton=name_skeleton(f"Bench System {{i:04d}}"),
                                                 agent_framework=f"fw{{i % 7}}", base_model=f"model{{i % 5}}")
                                          for i in range(N)])
    subs = Submission.objects.bulk_create([Submission(system=s, split=split, token=secrets_token, archive="x.zip",
                                                      archive_name="x.zip", archive_sha256=f"{{i:064x}}",
                                                      status=Submission.Status.FINISHED)
                                           for i, (s, secrets_token) in enumerate(
                                               (s, hashlib.md5(str(i).encode()).hexdigest()) for i, s in enumerate(systems))])
    def fields(p, k):
        passed = (p * 7 + k * 3) % 5
        return dict(status="done", phase="done", outcome="passed" if passed == 4 else "tests_failed", dsr=1,
                    ac=1.0, ac_declared=1, ac_implemented=1, tests_passed=passed, tests_total=4,
                    pass_at_1=passed / 4, solved=int(passed == 4),
                    endpoints=[{{"method": "GET", "path": f"/t{{k}}", "implemented": True, "evidence": "probe"}}])
    summaries = [summarize([entry_from_result(TaskResult(task=t, **fields(p, k))) for k, t in enumerate(tasks)])
                 for p in range(PATTERNS)]
    now = timezone.now()
    runs = EvaluationRun.objects.bulk_create([
        EvaluationRun(submission=s, benchmark=bench, split=split, status=RunStatus.FINISHED, phase=RunPhase.FINISHED,
                      evaluator_version="", backend="local", isolation="bench", summary=summaries[i % PATTERNS],
                      started_at=now, finished_at=now - dt.timedelta(seconds=i))
        for i, s in enumerate(subs)])
    TaskResult.objects.bulk_create([TaskResult(run=r, task=t, finished_at=now, **fields(i % PATTERNS, k))
                                    for i, r in enumerate(runs) for k, t in enumerate(tasks)], batch_size=5000)
print(f"seeded {{N}} systems x {{TASKS}} tasks in {{time.perf_counter() - t0:.1f}} s", flush=True)
client = Client()
for name, url in {urls}.items():
    t0 = time.perf_counter()
    response = client.get(url, HTTP_HOST="127.0.0.1")
    assert response.status_code == 200, (url, response.status_code)
    body = response.content
    print(f"cold {{name}}: {{time.perf_counter() - t0:.2f}} s, {{len(body)}} bytes", flush=True)
    open("{static}/" + name.replace(" ", "-") + ".bin", "wb").write(body)
'''


REDIS_URL = "redis://127.0.0.1:6379/9"


def cache_url(kind: str, var_dir: Path) -> str:
    """The CACHE_URL of the bench's site: Redis database 9, emptied (`redis`), or a file cache in `var_dir`."""
    if kind == "file":
        return f"filecache://{var_dir / 'django-cache'}"
    import redis  # installed with Django's Redis cache backend (requirements.txt)
    redis.Redis.from_url(REDIS_URL).flushdb()  # raises ConnectionError when no server runs: scripts/services.sh
    return REDIS_URL


def site(var_dir: Path, port: int, systems: int, cache: str) -> subprocess.Popen:
    """Release, seed, warm and start gunicorn on 127.0.0.1:`port`; returns the gunicorn process."""
    env = site_env(var_dir, port, CACHE_URL=cache_url(cache, var_dir))
    release(env)
    static = var_dir / "staticfiles" / "bench"
    static.mkdir(parents=True)
    print(run([PY, "-c", SEED.format(systems=systems, tasks=TASKS, patterns=PATTERNS, urls=repr(URLS),
                                     static=static)], env), end="")
    return gunicorn_start(env, var_dir, ready_path="/static/bench/board-API.bin")


def _ms(text: str) -> float:
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", text).groups()
    return float(value) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[unit]


def load_wrk(url: str, duration: int, connections: int) -> dict:
    """wrk -t2 -c<connections> -d<duration>s --latency: requests/s, p50, p99 (ms), errors."""
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "--latency", url],
                         capture_output=True, text=True, check=True).stdout
    latency = dict(re.findall(r"^\s+(50|99)(?:\.0+)?%\s+(\S+)\s*$", out, re.M))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), "p50_ms": _ms(latency["50"]),
            "p99_ms": _ms(latency["99"]), "errors": int(errors.group(1)) if errors else 0}


def load_httpx(url: str, duration: int, connections: int) -> dict:
    """The same figures from `connections` httpx clients in one asyncio loop (when wrk is not installed)."""
    async def main() -> dict:
        times, errors = [], 0
        end = time.monotonic() + duration

        async def worker() -> None:
            nonlocal errors
            async with httpx.AsyncClient(timeout=30) as client:
                while time.monotonic() < end:
                    t0 = time.perf_counter()
                    r = await client.get(url)
                    times.append(1e3 * (time.perf_counter() - t0))
                    errors += r.status_code != 200
        t0 = time.monotonic()
        await asyncio.gather(*(worker() for _ in range(connections)))
        q = statistics.quantiles(times, n=100)
        return {"rps": len(times) / (time.monotonic() - t0), "p50_ms": q[49], "p99_ms": q[98], "errors": errors}
    return asyncio.run(main())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", type=int, nargs="+", default=[10, 1000])
    parser.add_argument("--duration", type=int, default=10, help="seconds per URL")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--keep", action="store_true", help="keep the temporary VAR_DIRs")
    parser.add_argument("--cache", choices=("redis", "file"), default="redis",
                        help="the shared cache: Redis as in production (default), or django's file-based one")
    args = parser.parse_args()
    load = load_wrk if shutil.which("wrk") else load_httpx
    print(f"load generator: {'wrk' if load is load_wrk else 'httpx (asyncio)'}, {args.connections} connections, "
          f"{args.duration} s per URL; gunicorn with 2 workers; cache: {args.cache}")
    figures = {}
    for n in args.systems:
        var_dir = Path(tempfile.mkdtemp(prefix="board-speed-"))
        port = free_port()
        web = site(var_dir, port, n, args.cache)
        try:
            for name, path in URLS.items():
                static = f"/static/bench/{name.replace(' ', '-')}.bin"
                for label, url in ((name, path), (f"{name} as a static file", static)):
                    load(f"http://127.0.0.1:{port}{url}", 2, args.connections)  # warm-up: imports, templates
                    result = load(f"http://127.0.0.1:{port}{url}", args.duration, args.connections)
                    figures[(n, label)] = result
                    print(f"N={n:>5} {label:<32} {result['rps']:>8.0f} req/s  p50 {result['p50_ms']:>7.1f} ms  "
                          f"p99 {result['p99_ms']:>7.1f} ms  errors {result['errors']}", flush=True)
        finally:
            web.terminate()
            web.wait(timeout=30)
            if not args.keep:
                shutil.rmtree(var_dir, ignore_errors=True)
    small, large = min(args.systems), max(args.systems)
    verdict = {}
    for name in URLS:
        big, static = figures[(large, name)], figures[(large, f"{name} as a static file")]
        verdict[name] = {f"p99_under_100ms_at_{large}": big["p99_ms"] < 100,
                         "throughput_share_of_static": round(big["rps"] / max(static["rps"], 1e-9), 3),
                         "throughput_at_least_half_of_static": big["rps"] >= 0.5 * static["rps"],
                         f"median_{large}_over_{small}": round(big["p50_ms"] / max(figures[(small, name)]["p50_ms"], 1e-9), 2),
                         "median_within_2x": big["p50_ms"] <= 2 * figures[(small, name)]["p50_ms"]}
    print(json.dumps(verdict, indent=1))


if __name__ == "__main__":
    main()
