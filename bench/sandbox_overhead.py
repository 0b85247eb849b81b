"""Per-task sandbox overhead of the local backend (setup + teardown), next to a real demo task's phases.

Usage: .venv/bin/python bench/sandbox_overhead.py [--repeat 20]
Prints seconds (median and max) for: opening a task sandbox (network namespace or container), one sandboxed
command, starting and tearing down a trivial daemonizing service, for every backend and isolation level
available (Docker needs a running dockerd and the images of docker/build-images.sh); then install / start /
test of the TodoList reference.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def _measure(backend, repeat: int) -> dict[str, list[float]]:
    from core.sandbox import Mount, Role

    times: dict[str, list[float]] = {"open": [], "run": [], "service+teardown": []}
    with tempfile.TemporaryDirectory(dir=Path.cwd() / "var") as tmp:
        work = Path(tmp)
        work.chmod(0o755)
        (work / "start.sh").write_text("(setsid sleep 300 &) ; exec sleep 300\n")
        for i in range(repeat):
            t0 = time.perf_counter()
            sb = backend.open_task(key=f"bench{i}{os.getpid()}", port=8080, work_dir=work)
            t1 = time.perf_counter()
            sb.run(["true"], role=Role.SERVICE, cwd=work, env={}, timeout=10, mounts=[Mount(work)])
            t2 = time.perf_counter()
            sb.start_service([str(work / "start.sh")], cwd=work, env={}, mounts=[Mount(work)])
            sb.close()
            t3 = time.perf_counter()
            times["open"].append(t1 - t0)
            times["run"].append(t2 - t1)
            times["service+teardown"].append(t3 - t2)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    import django

    django.setup()
    from core.sandbox import SandboxError, get_backend

    backends = [(level, lambda level=level: get_backend("local", force_level=level))
                for level in ("netns+bwrap+cgroup", "netns+bwrap", "process")]
    backends.append(("docker", lambda: get_backend("docker")))
    for label, make in backends:
        try:
            backend = make()
            results = _measure(backend, args.repeat)
        except SandboxError as exc:
            print(f"{label:<20} unavailable: {exc}")
            continue
        for name, values in results.items():
            print(f"{label:<20} {name:<18} median {statistics.median(values):.4f} s  max {max(values):.4f} s")
    _demo_task()


def _demo_task() -> None:
    from django.core.management import call_command

    from evaluation.pipeline import repo_evaluate
    from catalog.models import Task
    from catalog.services import task_reference_dir

    task = Task.objects.filter(name="TodoList", benchmark__is_current=True).first()
    if task is None:
        call_command("migrate", verbosity=0)
        call_command("import_benchmark", "benchmarks/demo", "--skip-reference-check", verbosity=0)
        task = Task.objects.get(name="TodoList", benchmark__is_current=True)
    evaluation = repo_evaluate(task=task, repo=task_reference_dir(task))
    print(f"TodoList reference: {evaluation.outcome}, phases (s): {evaluation.durations}")


if __name__ == "__main__":
    main()
