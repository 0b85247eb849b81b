"""Counting a hidden pytest suite's cases with `pytest --collect-only` (docs/scoring.md "Metrics per task")."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

from .runner_env import ensure_runner_env
from .toolchain import Toolchain

_COUNT = re.compile(r"(\d+) tests? collected", re.M)
_PER_FILE = re.compile(r"^\S+\.py: (\d+)$", re.M)


def collect_count(hidden_dir: Path, toolchain: Toolchain, *, pytest_args: tuple[str, ...] = (),
                  timeout: float = 120) -> int | None:
    """Cases pytest collects from the task's suite (with the benchmark's `pytest_args` fixes), or None when
    collection fails (white-box suites).

    Runs the benchmark's own files (trusted) with the runner environment; never a submission.
    """
    env_dir = ensure_runner_env(hidden_dir, toolchain)
    target = "tests" if (hidden_dir / "tests").is_dir() else "."
    proc = subprocess.run(
        [str(env_dir / "bin" / "python"), "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", target,
         *pytest_args],
        cwd=hidden_dir, capture_output=True, text=True, timeout=timeout,
        env={"PATH": f"{env_dir}/bin:/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"},
    )
    if proc.returncode == 5:  # pytest's "no tests collected"
        return 0
    if proc.returncode != 0:
        return None
    match = _COUNT.search(proc.stdout)
    if match:
        return int(match.group(1))
    per_file = _PER_FILE.findall(proc.stdout)  # `-qq` (a suite's own `addopts = -q` plus ours): "test_x.py: 5"
    if per_file:
        return sum(int(n) for n in per_file)
    return sum(1 for line in proc.stdout.splitlines() if "::" in line)
