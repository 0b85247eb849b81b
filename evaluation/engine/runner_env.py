"""Test-runner environments for hidden pytest suites, built once per requirement set and cached.

The runner's environment gets the suite's `tests/requirements.txt` and the task-root
`requirements.txt` (BENCHMARK-FORMAT.md "What real suites look like"), minus linters and
formatters, plus pytest and pytest-timeout. It is built by the platform from benchmark files only
(trusted input) and mounted read-only into the runner's sandbox.
"""
from __future__ import annotations

import fcntl
import hashlib
import shutil
import subprocess
from pathlib import Path

from .toolchain import Toolchain

SKIPPED = {"black", "flake8", "mypy", "pylint", "isort", "ruff", "autopep8", "pre-commit", "yapf"}
ALWAYS = ["pytest>=7", "pytest-timeout>=2.1"]


class RunnerEnvError(RuntimeError):
    """The runner environment could not be built (a platform or benchmark fault)."""


def runner_requirements(hidden_dir: Path) -> list[str]:
    """Requirement lines for a task's runner: tests/ and task-root files, linters dropped, sorted."""
    lines: set[str] = set(ALWAYS)
    for path in (hidden_dir / "tests" / "requirements.txt", hidden_dir / "requirements.txt"):
        if not path.is_file():
            continue
        for raw in path.read_text(errors="replace").splitlines():
            line = raw.split("#", 1)[0].strip()
            if not line or line.startswith("-"):
                continue
            name = line.split(";")[0].split("[")[0]
            for sep in "<>=!~ ":
                name = name.split(sep)[0]
            if name.lower() not in SKIPPED:
                lines.add(line)
    return sorted(lines)


def ensure_runner_env(hidden_dir: Path, toolchain: Toolchain, *, timeout: float = 600) -> Path:
    """Return the path of a ready runner environment for this task (built on first use).

    Raises RunnerEnvError with uv's output when the build fails.
    """
    reqs = runner_requirements(hidden_dir)
    digest = hashlib.sha256("\n".join(reqs + [str(toolchain.python)]).encode()).hexdigest()[:16]
    target = toolchain.runner_envs / digest
    if (target / ".ready").exists():
        return target
    toolchain.runner_envs.mkdir(parents=True, exist_ok=True)
    with open(toolchain.runner_envs / f"{digest}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (target / ".ready").exists():
            return target
        shutil.rmtree(target, ignore_errors=True)
        req_file = toolchain.runner_envs / f"{digest}.txt"
        req_file.write_text("\n".join(reqs) + "\n")
        env = {"PATH": "/usr/bin:/bin", "HOME": str(toolchain.cache_root), **toolchain.install_env(platform=True)}
        for argv in ([str(toolchain.uv), "venv", "--python", str(toolchain.python), str(target)],
                     [str(toolchain.uv), "pip", "install", "--python", str(target / "bin" / "python"),
                      "-r", str(req_file)]):
            proc = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=timeout)
            if proc.returncode != 0:
                raise RunnerEnvError(f"{' '.join(argv)} failed: {proc.stdout[-2000:]}{proc.stderr[-2000:]}")
        target.chmod(0o755)
        (target / ".ready").write_text("ok")
    return target
