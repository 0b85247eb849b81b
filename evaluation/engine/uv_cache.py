"""The shared uv cache, which no submission can write.

The platform warms it with wheels only (`--only-binary :all:`: nothing of the submission runs) for the
plain requirement lines of a submission's requirements.txt. Each task then installs with its own
copy of the cache made of hard links: the copy's folders belong to the task's user, the shared files
stay root-owned and read-only, so a hostile install can add files to its copy but never alter the
shared ones.
"""
from __future__ import annotations

import os
import re
import shutil
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


def prefetch_wheels(requirements: Path, toolchain: Toolchain, *, timeout: float = 300) -> bool:
    """Best effort: download the wheels of `requirements`' plain lines into the shared cache.

    Runs as the platform with nothing of the submission executed (wheels only). Returns True on success.
    """
    lines = plain_requirements(requirements)
    if not lines:
        return True
    toolchain.uv_cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="rg-prefetch-") as tmp:
        req = Path(tmp) / "requirements.txt"
        req.write_text("\n".join(lines) + "\n")
        env = {"PATH": "/usr/bin:/bin", "HOME": tmp, **toolchain.install_env(shared=True)}
        argv = [str(toolchain.uv), "pip", "install", "--quiet", "--only-binary", ":all:", "--python",
                str(toolchain.python), "--target", str(Path(tmp) / "target"), "-r", str(req)]
        try:
            return subprocess.run(argv, env=env, capture_output=True, timeout=timeout).returncode == 0
        except subprocess.TimeoutExpired:
            return False


def task_cache_copy(shared: Path, dest: Path, owner: tuple[int, int] | None) -> Path:
    """Make `dest` a hard-linked copy of the shared cache whose folders belong to `owner` (files stay
    root-owned and read-only; lock files are left out so uv creates its own). Returns `dest`."""
    if shared.is_dir() and subprocess.run(["cp", "-al", str(shared), str(dest)], capture_output=True).returncode == 0:
        # uv opens its lock and marker files for writing: the copy gets fresh ones instead of the shared ones.
        markers = [*dest.rglob("*.lock"), *(p for p in dest.glob("*") if p.is_file()),
                   *(p for p in dest.glob("*/*") if p.is_file() and p.name in (".git", ".gitignore", "CACHEDIR.TAG"))]
        for marker in markers:
            marker.unlink(missing_ok=True)
    else:
        shutil.rmtree(dest, ignore_errors=True)
        dest.mkdir(parents=True)
    if owner:
        for dirpath, _, _ in os.walk(dest):
            os.chown(dirpath, *owner)
    return dest
