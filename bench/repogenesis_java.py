"""Java timings on RepoGenesis Verified: per Java task, build with a cold and a warm Maven repository, start and
test seconds; then the whole 30-task reference submission's wall time next to the sum of its phases.

Usage (after importing RepoGenesis Verified, see bench/repogenesis_python.py):

    .venv/bin/python bench/repogenesis_java.py [--concurrency 2] [--no-whole]

It works on a Maven repository of its own (an empty folder under VAR_DIR/bench-m2, never the platform's):
- cold: each Java reference built from Maven Central through the proxy with that repository empty of what the task
  needs (tasks run one after another, each harvesting what it downloaded, as reference checks do);
- warm: the same task again with the harvested repository;
- whole: every reference (22 Python, 8 Java) evaluated like one submission at `--concurrency`, warm.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
REFERENCES = ROOT / "benchmarks" / "repogenesis-references"


def main() -> None:
    import django

    django.setup()
    from django.conf import settings

    from core.engine.runner import evaluate_task
    from evaluation.engine_setup import sandbox_backend, task_spec, toolchain, work_root
    from catalog.selectors import split_get

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--whole", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args()
    repo = Path(settings.VAR_DIR) / "bench-m2"
    shutil.rmtree(repo, ignore_errors=True)
    repo.mkdir(parents=True, mode=0o777)
    repo.chmod(0o777)
    tools = dataclasses.replace(toolchain(), maven_repo=repo)
    tasks = list(split_get(benchmark="repogenesis", split="verified").tasks.order_by("name"))

    def run(task, harvest: bool):
        return evaluate_task(spec=task_spec(task), repo_src=REFERENCES / task.name, backend=sandbox_backend(),
                             work_root=work_root(), toolchain=tools, harvest_maven=harvest)

    print(f"{'task':<30} {'P/N':>7} {'build cold':>10} {'build warm':>10} {'start':>6} {'test':>6}")
    for task in [t for t in tasks if t.language == "java"]:
        cold, warm = run(task, True), run(task, True)
        d = warm.durations
        print(f"{task.name:<30} {warm.tests_passed:>3}/{warm.tests_total:<3} {cold.durations.get('install', 0):>10.1f} "
              f"{d.get('install', 0):>10.1f} {d.get('start') or 0:>6.1f} {d.get('test') or 0:>6.1f}"
              f"{'' if cold.outcome == warm.outcome == 'passed' else f'  ({cold.outcome}, {warm.outcome})'}",
              flush=True)
    if not args.whole:
        return
    t0 = time.monotonic()
    with ThreadPoolExecutor(max_workers=args.concurrency) as pool:
        results = list(pool.map(lambda t: run(t, False), tasks))
    wall = time.monotonic() - t0
    phases = sum(v for e in results for v in e.durations.values() if v)
    passed = sum(e.outcome == "passed" for e in results)
    print(f"\nwhole reference submission, {len(tasks)} tasks at concurrency {args.concurrency}: wall {wall:.1f} s, "
          f"sum of phases {phases:.1f} s ({phases / wall:.2f}x overlap); {passed} tasks passed")


if __name__ == "__main__":
    main()
