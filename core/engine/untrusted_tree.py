"""File operations on trees a submission controls, done as root without following its links.

A submission (or code its build runs) can replace `src`, `target` or any folder with a symlink to a host folder, or
leave FIFOs and device nodes behind. The platform copies and cleans such trees as root, so every operation here
refuses to go through a link and skips special files (docs/scoring.md "The run of one task", install phase).
"""
from __future__ import annotations

import hashlib
import os
import shutil
import stat
from pathlib import Path


def copy_tree(source: Path, target: Path) -> None:
    """Copy `source` to `target` keeping symlinks as links (never followed) and leaving out FIFOs, sockets and
    device nodes."""
    def special(folder: str, names: list[str]) -> list[str]:
        skipped = []
        for name in names:
            mode = os.lstat(os.path.join(folder, name)).st_mode
            if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode)):
                skipped.append(name)
        return skipped

    shutil.copytree(source, target, symlinks=True, ignore=special)


def remove_below(root: Path, rel: str) -> None:
    """Remove `root/rel` without following a link on the way: if any component of the path is a symlink, only that
    link is removed; the folder it points at is never touched."""
    current = root
    for part in Path(rel).parts:
        current = current / part
        if current.is_symlink():
            current.unlink()
            return
        if not current.exists():
            return
    if current.is_dir():
        shutil.rmtree(current, ignore_errors=True)
    else:
        current.unlink(missing_ok=True)


def remove_copies(root: Path, originals: list[Path]) -> list[Path]:
    """Delete every regular file under `root` (links not followed) whose bytes equal one of `originals` (hidden
    test files a build copied elsewhere, e.g. into target/classes); returns what was removed."""
    digests: dict[int, set[str]] = {}
    for path in originals:
        data = path.read_bytes()
        digests.setdefault(len(data), set()).add(hashlib.sha256(data).hexdigest())
    removed = []
    for dirpath, dirnames, filenames in os.walk(root):  # os.walk does not follow symlinked folders
        for name in filenames:
            path = Path(dirpath) / name
            info = path.lstat()
            if stat.S_ISREG(info.st_mode) and info.st_size in digests and \
                    hashlib.sha256(path.read_bytes()).hexdigest() in digests[info.st_size]:
                path.unlink()
                removed.append(path)
    return removed
