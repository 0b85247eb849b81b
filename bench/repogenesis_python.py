"""Evaluating the 22 Python reference solutions of RepoGenesis Verified: our evaluator against a naive serial
protocol, in the same run.

Usage (after `manage.py import_benchmark ../shared/data/repogenesis/verified --name repogenesis
--manifest benchmarks/repogenesis/benchmark.json`):

    .venv/bin/python bench/repogenesis_python.py [--concurrency 2 4 8] [--repeat 2] [--naive | --no-naive]

- ours: `folder_evaluate` (the path of `manage.py evaluate` and of reference checks) at each concurrency, `--repeat`
  times; per-task outcomes and P/N must be identical across repeats (printed as "identical: yes/no").
- naive: what a hand-written harness does, one task at a time: a fresh venv with `pip install --no-cache-dir -r
  requirements.txt`, a fresh runner venv with the same packages as ours (`runner_requirements`), start.sh,
  wait for the port, pytest, kill. It runs our own reference code only (trusted), each task in a fresh network
  namespace (`unshare -n`, root only) so its port is free.
- printed: wall seconds of each, the ratio naive / ours, and the critical path (the longest single task of ours:
  no schedule can finish sooner), with ours / critical path. Targets (issue 9): naive / ours >= 10, ours / critical
  path <= 1.3.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
REFERENCES = ROOT / "benchmarks" / "repogenesis-references"


def _tasks():
    from catalog.selectors import split_get

    split = split_get(benchmark="repogenesis", split="verified")
    return [t for t in split.tasks.order_by("name") if t.language == "python" and (REFERENCES / t.name).is_dir()]


def run_ours(tasks, concurrency: int) -> tuple[float, dict[str, tuple], float]:
    """(wall seconds, {task: (outcome, P, N)}, longest single task in seconds)."""
    from evaluation.pipeline import folder_evaluate

    t0 = time.monotonic()
    pairs = folder_evaluate(tasks=tasks, root=REFERENCES, concurrency=concurrency)
    wall = time.monotonic() - t0
    results = {t.name: (e.outcome, e.tests_passed, e.tests_total) for t, e in pairs}
    longest = max(sum(v for v in e.durations.values() if v) for _, e in pairs)
    return wall, results, longest


def _venv(path: Path, *args: str) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(path)], check=True)
    if args:
        subprocess.run([str(path / "bin" / "pip"), "install", "-q", "--no-cache-dir", *args], check=False,
                       capture_output=True)
    return path


def run_naive_task(task, hidden: Path, work: Path) -> tuple[int, int]:
    """One task the naive way; returns (P, N) from its JUnit XML."""
    from core.engine.runner_env import runner_requirements

    repo = work / "repo"
    shutil.copytree(REFERENCES / task.name, repo)
    service = _venv(work / "svc", "-r", str(repo / "requirements.txt"))
    runner = _venv(work / "runner", *runner_requirements(hidden))  # the same packages as ours, built from scratch
    site = next((service / "lib").glob("python*/site-packages"))
    suite = work / "suite"
    shutil.copytree(hidden, suite)
    report = work / "junit.xml"
    script = f"""
        ip link set lo up 2>/dev/null
        set -m  # the service in a process group of its own, killed as a whole below
        (cd {repo} && PATH={service}/bin:$PATH PORT={task.port} exec bash start.sh >/dev/null 2>&1) &
        svc=$!
        for i in $(seq 300); do curl -s -m 1 -o /dev/null http://127.0.0.1:{task.port}/ && break; sleep 0.1; done
        cd {suite} && PYTHONPATH={repo}:{site} {runner}/bin/python -m pytest tests -q -p no:cacheprovider --timeout=30 \\
            --junitxml={report} {' '.join(task.pytest_args)} >/dev/null 2>&1
        kill -KILL -- -$svc 2>/dev/null
    """
    prefix = ["unshare", "-n"] if os.geteuid() == 0 and shutil.which("unshare") else []
    subprocess.run([*prefix, "bash", "-c", script], timeout=900)
    try:
        cases = list(ET.parse(report).getroot().iter("testcase"))
    except (OSError, ET.ParseError):
        return 0, task.tests_total
    passed = sum(1 for c in cases if not any(ch.tag in ("failure", "error", "skipped") for ch in c))
    return passed, max(task.tests_total, len(cases))


def run_naive(tasks) -> tuple[float, dict[str, tuple[int, int]]]:
    from catalog.services import task_hidden_dir

    t0 = time.monotonic()
    results = {}
    for task in tasks:
        with tempfile.TemporaryDirectory(prefix="naive-") as tmp:
            results[task.name] = run_naive_task(task, task_hidden_dir(task), Path(tmp))
        print(f"  naive {task.name:<28} {results[task.name][0]}/{results[task.name][1]}", flush=True)
    return time.monotonic() - t0, results


def main() -> None:
    import django

    django.setup()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--concurrency", type=int, nargs="+", default=[2, 4, 8])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--naive", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args()
    tasks = _tasks()
    print(f"{len(tasks)} Python tasks with a reference solution")
    runs: dict[int, list] = {}
    for concurrency in args.concurrency:
        for i in range(args.repeat):
            wall, results, longest = run_ours(tasks, concurrency)
            runs.setdefault(concurrency, []).append((wall, results, longest))
            print(f"ours  concurrency {concurrency}  run {i + 1}: {wall:6.1f} s  (longest task {longest:.1f} s)",
                  flush=True)
    first = next(iter(runs.values()))[0][1]
    identical = all(r[1] == first for rs in runs.values() for r in rs)
    print("\nper task (ours):")
    for name, (outcome, p, n) in sorted(first.items()):
        print(f"  {name:<28} {outcome:<13} {p}/{n}")
    print(f"identical per-task results on every run: {'yes' if identical else 'NO'}")
    best_c, (best, _, critical) = min(((c, r) for c, rs in runs.items() for r in rs), key=lambda x: x[1][0])
    print(f"\nours: best {best:.1f} s at concurrency {best_c}; critical path (the longest task of that run) "
          f"{critical:.1f} s; ours / critical path = {best / critical:.2f}")
    if args.naive:
        naive_wall, naive = run_naive(tasks)
        agree = all(naive[n] == first[n][1:] for n in naive)
        print(f"naive serial protocol: {naive_wall:.1f} s; naive / ours = {naive_wall / best:.1f}x; "
              f"same P/N as ours on every task: {'yes' if agree else 'no'}")


if __name__ == "__main__":
    main()
