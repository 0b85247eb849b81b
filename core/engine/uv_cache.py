"""The shared uv cache, which no submission can write or even read.

Before the sandboxed install, the platform itself creates the task's virtual environment and installs
into it the wheels (`--only-binary :all:`: installing a wheel runs no code) of the plain requirement
lines of the submission's requirements.txt, using the shared cache. The sandboxed install then runs the
real `uv pip install -r requirements.txt` with an empty cache of its own: what is already installed is
kept, and only the rest (sdists, local packages) is fetched and built inside the sandbox.

The shared cache is bounded (red team round 12: a 4-line requirements.txt of large wheels grew it from 37 MB to
528 MB on the host's disk, for a task that then had no start script): what is already cached is installed offline,
adding nothing; anything else is downloaded into a staging cache of the task's own, which may hold at most
`Toolchain.uv_cache_task_bytes`. Within that budget the staged entries are merged into the shared cache; over it uv
is stopped, the task's virtual environment is made empty again and the whole install happens in the sandbox (its own
cache, on the task's disk, within its limits), caching nothing. When a merge takes the shared cache over
`Toolchain.uv_cache_max_bytes`, the shared cache is emptied (`uv cache clean`): it fills again with what tasks use.
"""
from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from core.grading.untrusted_files import read_regular_text

from .toolchain import Toolchain

#: A PEP 508 requirement without URL, path or pip option: name[extras] specifiers ; markers
REQUIREMENT = re.compile(
    r"^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9,._ -]*\])?\s*"
    r"(\(?\s*(===|==|!=|<=|>=|~=|<|>)\s*[A-Za-z0-9.*+!_-]+(\s*,\s*(===|==|!=|<=|>=|~=|<|>)\s*[A-Za-z0-9.*+!_-]+)*\s*\)?)?"
    r"\s*(;[^#@]*)?$"
)


#: Bytes of a requirements file the worker reads for the wheel pre-install (red team round 15: a 250 MB file of
#: newlines took the worker 2.4 GB as one list of lines). An honest file is a few kilobytes; uv, in the sandbox,
#: still reads the whole file.
REQUIREMENTS_BYTES = 256 * 1024


def plain_requirements(path: Path, *, limit: int = 500) -> list[str]:
    """The lines of a requirements file that are plain requirement specifiers (options, URLs, paths,
    `-r` includes and anything unusual are left out), from its first REQUIREMENTS_BYTES only, and only when it is a
    regular file (never a link or a FIFO). At most `limit` lines."""
    lines = []
    for raw in read_regular_text(path, REQUIREMENTS_BYTES).splitlines()[:5000]:
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
    dropped): first offline from the shared cache alone; when that cannot satisfy every line, online into a
    staging cache of at most `toolchain.uv_cache_task_bytes` bytes, merged into the shared cache when uv succeeded
    within it (module docstring). Over the budget `venv` is made empty again (the sandboxed install then installs
    everything, caching nothing in the shared cache). `timeout`: seconds for the whole pre-install. Returns (True
    when every plain line was satisfied this way, uv's output or the reason it was not, for the install log).
    """
    lines = plain_requirements(requirements)
    if not lines:
        return False, ""
    toolchain.uv_cache.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + timeout
    with tempfile.TemporaryDirectory(prefix="rg-preinstall-") as tmp:
        req = Path(tmp) / "requirements.txt"
        req.write_text("\n".join(lines) + "\n")
        argv = [str(toolchain.uv), "pip", "install", "--only-binary", ":all:", "--python",
                str(venv / "bin" / "python"), "-r", str(req)]
        env = {"PATH": "/usr/bin:/bin", "HOME": tmp, **toolchain.install_env(shared=True)}
        try:
            proc = subprocess.run([*argv, "--offline"], env=env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return False, "timed out\n"
        if proc.returncode == 0:
            return True, proc.stderr[-8000:]
        staging = Path(tempfile.mkdtemp(prefix="uv-staging-", dir=toolchain.cache_root))
        try:
            env = {**env, **toolchain.install_env(cache=staging)}
            code, output = _run_within(argv, env=env, folder=staging, budget=toolchain.uv_cache_task_bytes,
                                       deadline=deadline)
            if code == "over":
                _empty_venv(venv, toolchain)
                return False, (f"the wheels would add more than {toolchain.uv_cache_task_bytes // 2**20} MiB to the "
                               "shared cache (the per-task budget): installed in the sandbox instead, uncached\n")
            if code != 0:
                return False, "timed out\n" if code == "timeout" else ""
            merge_into_shared(staging, toolchain)
            return True, output[-8000:]
        finally:
            shutil.rmtree(staging, ignore_errors=True)


def tree_bytes(folder: Path) -> int:
    """Bytes of the regular files below `folder` (links not followed; files that vanish while counted skipped)."""
    total = 0
    for dirpath, _, filenames in os.walk(folder):
        for name in filenames:
            try:
                total += os.lstat(os.path.join(dirpath, name)).st_size
            except OSError:
                continue
    return total


def _run_within(argv: list[str], *, env: dict, folder: Path, budget: int, deadline: float,
                poll: float = 0.5) -> tuple[int | str, str]:
    """Run `argv` while `folder` holds at most `budget` bytes and before `deadline` (time.monotonic()): (its exit
    code, its stderr), or ("over" / "timeout", "") when it was killed for the one or the other."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
        try:
            while proc.poll() is None:
                if tree_bytes(folder) > budget:
                    return "over", ""
                if time.monotonic() > deadline:
                    return "timeout", ""
                time.sleep(poll)
            if tree_bytes(folder) > budget:
                return "over", ""
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, 9)
                proc.wait()
        err.seek(0)
        return proc.returncode, err.read().decode("utf-8", "replace")


def _empty_venv(venv: Path, toolchain: Toolchain) -> None:
    """Make `venv` an empty virtual environment again (uv may have been stopped halfway through installing)."""
    shutil.rmtree(venv, ignore_errors=True)
    create_venv(venv, toolchain)


def merge_into_shared(staging: Path, toolchain: Toolchain) -> None:
    """Copy the entries of the uv cache `staging` that the shared cache lacks into it (unpacked archives first,
    then the index and wheel entries that point at them, so no entry is seen before what it names; an existing
    file is never replaced), under an exclusive lock of the shared cache's merges. Afterwards, a shared cache over
    `toolchain.uv_cache_max_bytes` is emptied with `uv cache clean`."""
    shared = toolchain.uv_cache
    with open(toolchain.cache_root / "uv-merge.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        tops = sorted((p for p in staging.iterdir() if not p.name.startswith(".")),
                      key=lambda p: (not p.name.startswith("archive"), p.name))
        for top in tops:
            for dirpath, dirnames, filenames in os.walk(top):
                rel = Path(dirpath).relative_to(staging)
                (shared / rel).mkdir(parents=True, exist_ok=True)
                for name in filenames + dirnames:  # uv links a wheel's entry to its archive (relative links)
                    source, target = Path(dirpath) / name, shared / rel / name
                    if os.path.lexists(target):
                        continue
                    if source.is_symlink():
                        os.symlink(os.readlink(source), target)
                    elif source.is_file():
                        partial = target.with_name(f".{name}.rg-partial")
                        shutil.copyfile(source, partial)
                        os.replace(partial, target)
        if tree_bytes(shared) > toolchain.uv_cache_max_bytes:
            subprocess.run([str(toolchain.uv), "cache", "clean", "--force"], capture_output=True, timeout=300,
                           env={"PATH": "/usr/bin:/bin", **toolchain.install_env(shared=True)})
