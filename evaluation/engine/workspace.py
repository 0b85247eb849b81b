"""A task's work folder with a size cap: a tmpfs of its own where the worker may mount one.

Everything a task writes (its repository copy, virtual environment, build output, the runner's files)
lives there, so a disk filler hits the cap (and, on tmpfs, the task's memory cgroup) instead of the
host's disk. Without the right to mount (not root), the folder is a plain directory and the cap is only
RLIMIT_FSIZE per file.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

DEFAULT_CAP_BYTES = 2 * 1024 ** 3


def create(path: Path, *, cap_bytes: int = DEFAULT_CAP_BYTES) -> bool:
    """Create `path` (mode 0711); mount a tmpfs of `cap_bytes` on it when possible. True when capped."""
    path.mkdir(parents=True, mode=0o711)
    if os.geteuid() != 0:
        return False
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={cap_bytes},mode=0711,nosuid,nodev", "tmpfs",
                           str(path)], capture_output=True)
    return proc.returncode == 0


def remove(path: Path) -> None:
    """Delete the folder, unmounting its tmpfs first (lazily, should a process still hold it)."""
    if os.path.ismount(path):
        subprocess.run(["umount", "-l", str(path)], capture_output=True)
    shutil.rmtree(path, ignore_errors=True)


def sweep(root: Path, *, older_than: float) -> int:
    """Remove task folders under `root` left by a crashed worker (untouched for `older_than` seconds)."""
    import time

    removed = 0
    if not root.is_dir():
        return 0
    for path in root.iterdir():
        try:
            age = time.time() - path.stat().st_mtime
        except OSError:
            continue
        if path.is_dir() and age > older_than:
            remove(path)
            removed += 1
    return removed
