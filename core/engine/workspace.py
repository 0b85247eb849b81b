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
import time
from pathlib import Path

from core.sandbox.procfs import identity_alive, process_identity

DEFAULT_CAP_BYTES = 2 * 1024 ** 3


OWNER_FILE = ".rg-owner"


def create(path: Path, *, cap_bytes: int = DEFAULT_CAP_BYTES) -> bool:
    """Create `path` (mode 0711); mount a tmpfs of `cap_bytes` on it when possible. True when capped.

    The folder records which worker process owns it, so `sweep` can remove it once that process is gone.
    """
    path.mkdir(parents=True, mode=0o711)
    capped = os.geteuid() == 0 and subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={cap_bytes},mode=0711,nosuid,nodev", "tmpfs", str(path)],
        capture_output=True).returncode == 0
    (path / OWNER_FILE).write_text(process_identity(os.getpid()) or "")
    return capped


def remove(path: Path) -> None:
    """Delete the folder, unmounting its tmpfs first (lazily, should a process still hold it)."""
    if os.path.ismount(path):
        subprocess.run(["umount", "-l", str(path)], capture_output=True)
    try:
        shutil.rmtree(path, ignore_errors=True)
    except RecursionError:  # shutil recurses once per level: a tree the submission nested 1,200 deep (issue 15)
        subprocess.run(["rm", "-rf", "--one-file-system", "--", str(path)], capture_output=True)


def abandoned(path: Path, older_than: float) -> bool:
    """True when the task folder's owning worker process is gone (or, without an owner record, when it
    was untouched for `older_than` seconds)."""
    try:
        owner = (path / OWNER_FILE).read_text().strip()
    except OSError:
        owner = ""
    if owner:
        return not identity_alive(owner)
    try:
        return time.time() - path.stat().st_mtime > older_than
    except OSError:
        return False


def sweep(root: Path, *, older_than: float) -> int:
    """Remove task folders under `root` left by a crashed worker: those whose owning process is gone, and
    folders without an owner record untouched for `older_than` seconds. Returns how many were removed."""
    removed = 0
    if not root.is_dir():
        return 0
    for path in root.iterdir():
        if path.is_dir() and abandoned(path, older_than):
            remove(path)
            removed += 1
    return removed
