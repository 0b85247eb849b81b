"""Reading files and walking trees that someone else controls, as root, without being led anywhere
(core.engine.untrusted_tree, core.engine.layout, core.grading.junit, core.grading.static_routes).

A submission's service, build or test process can replace any file it could write with a symlink to a host file, a
FIFO or a device node. Reading such a file as root would follow the link (a read of a host file, or of /dev/zero
until out of memory) or block forever (a FIFO with no writer): red team rounds 10 and 11. It can also nest folders
deeper than any recursive walk survives (Python's os.walk, pathlib's rglob and shutil.copytree recurse once per
level: 1,200 levels raised RecursionError in the worker, issue 15): `walk_untrusted` is the one walk of such trees.
"""
from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

#: Folders nested deeper than this below the root of a tree the submission controls are refused (TreeTooDeep).
MAX_TREE_DEPTH = 64


class UntrustedTreeError(Exception):
    """A tree the submission controls cannot be inspected as it is (too deep, too many entries): the submission's
    outcome, never a platform fault. The message is a sentence for the submitter."""


class TreeTooDeep(UntrustedTreeError):
    """The tree holds a folder nested deeper than the walk's limit."""


class TreeUnreadable(UntrustedTreeError):
    """An entry of the tree cannot be inspected (the system refused it: a name whose whole path is longer than
    PATH_MAX, an entry gone or unreadable). The tree is the submission's: so is the outcome (red team round 13: a
    255-character name in a folder 4,000 characters deep made `apparent_size` raise ENAMETOOLONG, a platform fault
    retried three times and refunded). The message names the problem and the tree's first folders, never a host
    path."""

    @classmethod
    def of(cls, exc: OSError, rel: str) -> "TreeUnreadable":
        shown = "/".join(rel.split("/")[:3]) + ("/..." if rel.count("/") > 2 else "")
        return cls(f"the build left an entry the platform cannot read ({exc.strerror or type(exc).__name__}) below "
                   f"{shown}")


def walk_untrusted(root: Path | str, *, max_depth: int = MAX_TREE_DEPTH, strict: bool = False
                   ) -> Iterator[tuple[str, str, list[str], list[str]]]:
    """Walk the tree at `root` top-down without recursion and without following links, like `os.walk`: yields
    `(folder, rel, dirs, files)` for every folder, `folder` its path (str), `rel` its POSIX path relative to
    `root` ("." for the root), `dirs` the names of its real sub-folders (sorted; the caller may remove names in
    place to skip them), `files` the names of everything else in it (sorted: regular files, links, even links to
    folders, FIFOs, sockets, device nodes; never opened here). Folders are visited depth-first, each folder's
    sub-folders in name order, so the order is the same on every file system.

    Raises TreeTooDeep when a folder more than `max_depth` levels below `root` would be entered. A folder that
    cannot be listed (gone, unreadable) is skipped, or raises OSError with `strict`. A missing `root`, or one that
    is not a folder (a link to one included), yields nothing (OSError with `strict`)."""
    root = os.fspath(root)
    try:
        if not stat.S_ISDIR(os.lstat(root).st_mode):  # a link is never followed, not even at the root
            raise NotADirectoryError(f"{root} is not a folder")
    except OSError:
        if strict:
            raise
        return
    stack: list[tuple[str, str, int]] = [(root, ".", 0)]
    while stack:
        folder, rel, depth = stack.pop()
        if depth > max_depth:
            shown = "/".join(rel.split("/")[:6])
            raise TreeTooDeep(f"the repository holds a folder nested deeper than {max_depth} levels ({shown}/...)")
        dirs, files = [], []
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    try:
                        is_dir = entry.is_dir(follow_symlinks=False)
                    except OSError:
                        is_dir = False
                    (dirs if is_dir else files).append(entry.name)
        except OSError:
            if strict:
                raise
            continue
        dirs.sort()
        files.sort()
        yield folder, rel, dirs, files
        for name in reversed(dirs):
            stack.append((os.path.join(folder, name), name if rel == "." else f"{rel}/{name}", depth + 1))


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


def read_regular_text(path: Path, limit: int) -> str:
    """`read_regular(path, limit)` decoded as UTF-8 (undecodable bytes replaced); "" when it gives None."""
    return (read_regular(path, limit) or b"").decode(errors="replace")


def is_regular(path: Path) -> bool:
    """True when `path` itself (not a link's target) is a regular file."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False
