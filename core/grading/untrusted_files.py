"""Reading files that someone else controls, as root, without being led anywhere (core.engine.untrusted_tree,
core.grading.junit).

A submission's service, build or test process can replace any file it could write with a symlink to a host file, a
FIFO or a device node. Reading such a file as root would follow the link (a read of a host file, or of /dev/zero
until out of memory) or block forever (a FIFO with no writer): red team rounds 10 and 11.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path


def read_regular(path: Path, limit: int | None = None) -> bytes | None:
    """The first `limit` bytes (None: all) of `path` when it is a regular file reached without a link in its last
    component, else None (a symlink, FIFO, socket or device node; missing or unreadable). Never blocks on a FIFO
    and never reads past `limit`: red team round 10 replaced start.sh with a FIFO (the worker hung opening it) and
    with a link to /dev/zero (it read until out of memory) or to a root-only host file (a one-bit oracle)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read() if limit is None else handle.read(limit)
    except OSError:
        return None
    finally:
        os.close(fd)


def is_regular(path: Path) -> bool:
    """True when `path` itself (not a link's target) is a regular file."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False
