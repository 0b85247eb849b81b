"""The shared uv cache, which no submission can write or even read.

Before the sandboxed install, the platform itself creates the task's virtual environment and installs
into it the wheels (`--only-binary :all:`: installing a wheel runs no code) of the plain requirement
lines of the submission's requirements.txt, using the shared cache. The sandboxed install then runs the
real `uv pip install -r requirements.txt` with an empty cache of its own: what is already installed is
kept, and only the rest (sdists, local packages) is fetched and built inside the sandbox.
"""
from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path

from .toolchain import Toolchain

#: A PEP 508 requirement without URL, path or pip option: name[extras] specifiers ; markers
REQUIREMENT = re.compile(
    r"^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9,._ -]*\])?\s*"
    r"(\(?\s*(===|==|!=|<=|>=|~=|<|>)\s*[A-Za-z0-9.*+!_-]+(\s*,\s*(===|==|!=|<=|>=|~=|<|>)\s*[A-Za-z0-9.*+!_-]+)*\s*\)?)?"
    r"\s*(;[^#@]*)?$"
)


def plain_requirements(path: Path, *, limit: int = 500) -> list[str]:
    """The lines of a requirements file that are plain requirement specifiers (options, URLs, paths,
    `-r` includes and anything unusual are left out). At most `limit` lines."""
    lines = []
    for raw in path.read_text(errors="replace").splitlines()[:5000]:
        line = raw.split(" #", 1)[0].strip()
        if line and not line.startswith("#") and REQUIREMENT.match(line):
            lines.append(line)
    return lines[:limit]


def create_venv(venv: Path, toolchain: Toolchain) -> None:
    """Create an empty virtual environment on the sandbox's interpreter (platform side, no submission input).

    Raises RuntimeError with uv's message when it fails (a platform fault).
    """
    env = {"PATH": "/usr/bin:/bin", "HOME": str(venv.parent), **toolchain.install_env(shared=True)}
    proc = subprocess.run([str(toolchain.uv), "venv", "--quiet", "--python", str(toolchain.python), str(venv)],
                          env=env, capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise RuntimeError(f"uv venv failed: {proc.stderr.strip()[-500:]}")


def preinstall_wheels(requirements: Path, venv: Path, toolchain: Toolchain, *,
                      timeout: float = 300) -> tuple[bool, str]:
    """Best effort: install the wheels of `requirements`' plain lines into `venv` from the shared cache.

    Runs as the platform with nothing of the submission executed (wheels only, options and paths
    dropped). Returns (True when every plain line was satisfied this way, uv's output for the log).
    """
    lines = plain_requirements(requirements)
    if not lines:
        return False, ""
    toolchain.uv_cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="rg-preinstall-") as tmp:
        req = Path(tmp) / "requirements.txt"
        req.write_text("\n".join(lines) + "\n")
        env = {"PATH": "/usr/bin:/bin", "HOME": tmp, **toolchain.install_env(shared=True)}
        argv = [str(toolchain.uv), "pip", "install", "--only-binary", ":all:", "--python",
                str(venv / "bin" / "python"), "-r", str(req)]
        try:
            proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return False, "timed out\n"
        return proc.returncode == 0, proc.stderr[-8000:] if proc.returncode == 0 else ""
