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


ARCHIVE_SUFFIXES = (".jar", ".war", ".ear", ".zip")
#: JUnit configuration a submission may not bring into the hidden test run: extension and listener services and
#: the platform's properties file (the platform sets what the run needs on its command line).
JUNIT_CONFIGURATION = ("META-INF/services/org.junit.", "junit-platform.properties")


def _is_class_of(member: str, class_paths: set[str]) -> bool:
    """True when `member` (a "/"-separated path) is the compiled form of one of `class_paths` ("pkg/Name"), or of
    one of its nested classes ("pkg/Name$Inner.class"), wherever it lies."""
    if not member.endswith(".class"):
        return False
    stem = member[:-len(".class")].split("$", 1)[0]
    return any(stem == cp or stem.endswith("/" + cp) for cp in class_paths)


def find_classes(root: Path, class_paths: set[str], *, max_archive_bytes: int = 512 * 1024 * 1024) -> list[str]:
    """Where below `root` the compiled classes `class_paths` ({"com/example/FooTest", ...}) lie: .class files and
    entries of jar/war/ear/zip archives (up to `max_archive_bytes` each), as paths relative to `root`
    ("target/tc/com/example/FooTest.class", "target/app.jar!com/example/FooTest.class"). Links are not followed;
    an unreadable archive is skipped."""
    import zipfile

    found = []
    for folder, dirs, files in os.walk(root, followlinks=False):
        for name in files:
            path = Path(folder) / name
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                continue
            if _is_class_of(rel, class_paths):
                found.append(rel)
            elif name.lower().endswith(ARCHIVE_SUFFIXES) and path.stat().st_size <= max_archive_bytes:
                try:
                    with zipfile.ZipFile(path) as archive:
                        found += [f"{rel}!{m}" for m in archive.namelist() if _is_class_of(m, class_paths)]
                except (OSError, zipfile.BadZipFile, ValueError):
                    continue
    return sorted(found)


def remove_junit_configuration(root: Path, *, keep_below: str) -> list[str]:
    """Delete the submission's JUnit configuration files (JUNIT_CONFIGURATION) below `root`, except below
    `keep_below` (the hidden tests' own folder); returns what was removed (relative paths). Links are not
    followed: a link is removed itself."""
    removed = []
    for folder, dirs, files in os.walk(root, followlinks=False):
        rel_folder = Path(folder).relative_to(root).as_posix()
        if rel_folder == keep_below or rel_folder.startswith(keep_below + "/"):
            dirs[:] = []
            continue
        for name in files:
            rel = f"{rel_folder}/{name}" if rel_folder != "." else name
            if any(marker in rel for marker in JUNIT_CONFIGURATION):
                os.unlink(Path(folder) / name)
                removed.append(rel)
    return removed
