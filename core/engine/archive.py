"""Checking and unpacking submission archives (.zip, .tar.gz, .tgz, .tar).

`inspect_archive` reads only the member list (no file is written) so the upload form can refuse a
bad archive at once; `extract_archive` unpacks inside the worker under the same limits.
`inspect_repository` / `extract_repository` do the same for an archive holding one repository (an agent
endpoint's answer for one task). Refused:
links, devices, absolute paths, `..`, too many members, too many bytes, a suspicious compression
ratio, an empty archive. A single top folder wrapping the task folders is unwrapped.
"""
from __future__ import annotations

import os
import shutil
import stat
import tarfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Iterable


class ArchiveError(ValueError):
    """The archive is unusable; the message says what was wrong and what to do."""


@dataclass(frozen=True)
class ArchiveLimits:
    """Upload limits: member count, total uncompressed bytes, ratio uncompressed/compressed."""

    max_members: int = 20_000
    max_bytes: int = 500 * 1024 * 1024
    max_ratio: int = 200


@dataclass(frozen=True)
class _Member:
    name: str
    size: int
    is_dir: bool


@dataclass(frozen=True)
class ArchiveManifest:
    """What an archive holds: `prefix` is the wrapping folder that will be unwrapped ('' if none)."""

    prefix: str
    folders: tuple[str, ...]
    members: int
    total_bytes: int

    def matched(self, task_names: Iterable[str]) -> tuple[list[str], list[str], list[str]]:
        """(present tasks, missing tasks, unknown folders) against the split's task names (case-sensitive)."""
        names = list(task_names)
        present = [n for n in names if n in self.folders]
        missing = [n for n in names if n not in self.folders]
        unknown = [f for f in self.folders if f not in names]
        return present, missing, unknown

    def layout_warnings(self, task_names: Iterable[str]) -> list[str]:
        """Human-readable notes on folders that match no task (with a hint when only the case differs)."""
        names = list(task_names)
        _, missing, unknown = self.matched(names)
        by_lower = {n.lower(): n for n in missing}
        warnings = []
        for folder in unknown:
            hint = by_lower.get(folder.lower())
            if hint:
                warnings.append(f"folder {folder!r} is not task {hint!r}: task names are case-sensitive, so "
                                f"{hint!r} scores 0 as missing")
            else:
                warnings.append(f"folder {folder!r} matches no task of the split and is ignored")
        return warnings


def _kind(path: Path) -> str:
    if zipfile.is_zipfile(path):
        return "zip"
    try:
        with tarfile.open(path, "r:*"):
            return "tar"
    except (tarfile.TarError, OSError, EOFError):
        pass
    raise ArchiveError("The file is not a .zip or .tar.gz archive. Pack one folder per task, e.g. "
                       "`zip -r submission.zip TaskA TaskB` or `tar czf submission.tar.gz TaskA TaskB`.")


def _safe_name(raw: str) -> str:
    name = raw.replace("\\", "/")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise ArchiveError(f"The archive holds an absolute path ({raw!r}); use paths relative to the archive root.")
    parts = [p for p in PurePosixPath(name).parts if p not in ("", ".")]
    if ".." in parts:
        raise ArchiveError(f"The archive holds a path that escapes its folder ({raw!r}); remove '..' from paths.")
    return "/".join(parts)


def _zip_members(path: Path) -> list[_Member]:
    members = []
    with zipfile.ZipFile(path) as zf:
        for info in zf.infolist():
            mode = (info.external_attr >> 16) & 0o170000
            if mode and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                raise ArchiveError(f"The archive holds a link or special file ({info.filename!r}); "
                                   "only regular files and folders are accepted.")
            members.append(_Member(_safe_name(info.filename), info.file_size, info.is_dir()))
    return members


def _tar_members(path: Path, limits: ArchiveLimits) -> list[_Member]:
    members = []
    with tarfile.open(path, "r:*") as tf:
        for info in tf:
            if not (info.isfile() or info.isdir()):
                raise ArchiveError(f"The archive holds a link or special file ({info.name!r}); "
                                   "only regular files and folders are accepted.")
            members.append(_Member(_safe_name(info.name), info.size, info.isdir()))
            if len(members) > limits.max_members:
                break
    return members


def _members(path: Path, limits: ArchiveLimits) -> tuple[str, list[_Member]]:
    kind = _kind(path)
    try:
        members = _zip_members(path) if kind == "zip" else _tar_members(path, limits)
    except (zipfile.BadZipFile, tarfile.TarError, EOFError, OSError) as exc:
        raise ArchiveError(f"The archive is damaged and cannot be read ({exc}). Create it again.") from exc
    return kind, [m for m in members if m.name and not m.name.startswith("__MACOSX")]


def _check_limits(members: list[_Member], compressed: int, limits: ArchiveLimits) -> int:
    if len(members) > limits.max_members:
        raise ArchiveError(f"The archive holds more than {limits.max_members} entries; remove build "
                           "outputs, virtual environments and dependencies (node_modules, .venv, target).")
    total = sum(m.size for m in members)
    if total > limits.max_bytes:
        raise ArchiveError(f"The archive unpacks to {total} bytes, over the limit of {limits.max_bytes}; "
                           "remove build outputs and dependencies.")
    if compressed and total > limits.max_ratio * max(compressed, 1024):
        raise ArchiveError(f"The archive's compression ratio is over {limits.max_ratio}:1, which looks like "
                           "an archive bomb; it was refused.")
    return total


def _check_clashes(members: list[_Member]) -> None:
    """Refuse entries that cannot all be written or would overwrite each other: the same file twice, a file
    that is also a folder (or a folder's parent)."""
    seen: set[str] = set()
    for m in members:
        if not m.is_dir and m.name in seen:
            raise ArchiveError(f"The archive holds {m.name!r} twice; keep one copy and create the archive again.")
        seen.add(m.name)
    files = {m.name for m in members if not m.is_dir}
    folders = {m.name for m in members if m.is_dir}
    clashes = files & folders
    for m in members:
        parts = m.name.split("/")
        clashes |= files & {"/".join(parts[:i]) for i in range(1, len(parts))}
    if clashes:
        name = sorted(clashes)[0]
        raise ArchiveError(f"The archive holds {name!r} both as a file and as a folder; "
                           "rename one of them and create the archive again.")


def _top_folders(members: list[_Member], prefix: str) -> list[str]:
    """Folder names directly under `prefix` ('' for the archive root)."""
    strip = f"{prefix}/" if prefix else ""
    names = set()
    for m in members:
        if not m.name.startswith(strip):
            continue
        rest = m.name[len(strip):]
        if "/" in rest or (m.is_dir and rest):
            names.add(rest.split("/", 1)[0])
    return sorted(names)


def _prefix(members: list[_Member], task_names: frozenset[str]) -> tuple[str, tuple[str, ...]]:
    if not any(not m.is_dir for m in members):
        raise ArchiveError("The archive is empty. It must hold one folder per task.")
    tops = _top_folders(members, "")
    root_files = [m.name for m in members if "/" not in m.name and not m.is_dir]
    if not tops:
        raise ArchiveError("The archive holds files but no task folder. Put each task's repository in a "
                           "folder named exactly as the task (e.g. TodoList/start.sh).")
    if len(tops) == 1 and not root_files and tops[0] not in task_names:
        return tops[0], tuple(_top_folders(members, tops[0]))
    return "", tuple(tops)


def _checked_members(path: Path, limits: ArchiveLimits) -> tuple[list[_Member], int]:
    """The archive's members after the limit and clash checks, with their total size in bytes."""
    _, members = _members(path, limits)
    total = _check_limits(members, path.stat().st_size, limits)
    _check_clashes(members)
    return members, total


def inspect_archive(path: Path, *, limits: ArchiveLimits = ArchiveLimits(),
                    task_names: Iterable[str] = ()) -> ArchiveManifest:
    """Check an archive without writing anything. Raises ArchiveError with a user-facing reason.

    A single top folder that is not itself a task name is treated as a wrapper and unwrapped.
    """
    members, total = _checked_members(path, limits)
    prefix, folders = _prefix(members, frozenset(task_names))
    return ArchiveManifest(prefix=prefix, folders=folders, members=len(members), total_bytes=total)


def _copy_stream(src, dest: Path, budget: list[int]) -> None:
    with open(dest, "wb") as out:
        while chunk := src.read(1024 * 1024):
            budget[0] -= len(chunk)
            if budget[0] < 0:
                raise ArchiveError("The archive unpacks to more bytes than its header says; it was refused.")
            out.write(chunk)


def inspect_repository(path: Path, *, limits: ArchiveLimits = ArchiveLimits()) -> ArchiveManifest:
    """Check an archive that holds ONE repository (an agent endpoint's answer) without writing anything.

    Same refusals as `inspect_archive`; the repository is the archive root, or the single top folder when
    nothing else sits beside it (that folder is unwrapped). Raises ArchiveError.
    """
    members, total = _checked_members(path, limits)
    if not any(not m.is_dir for m in members):
        raise ArchiveError("The archive is empty. It must hold the repository's files.")
    tops = _top_folders(members, "")
    root_files = [m.name for m in members if "/" not in m.name and not m.is_dir]
    prefix = tops[0] if len(tops) == 1 and not root_files else ""
    return ArchiveManifest(prefix=prefix, folders=tuple(tops), members=len(members), total_bytes=total)


def extract_archive(path: Path, dest: Path, *, limits: ArchiveLimits = ArchiveLimits(),
                    task_names: Iterable[str] = ()) -> ArchiveManifest:
    """Unpack into `dest` (created; must not exist), unwrapping a single top folder.

    Only regular files and folders are written, with mode 0644/0755 (0755 for files that were
    executable). Byte counts are enforced while writing, not trusted from headers. Raises ArchiveError.
    """
    manifest = inspect_archive(path, limits=limits, task_names=task_names)
    _extract(path, dest, manifest, limits)
    return manifest


def extract_repository(path: Path, dest: Path, *, limits: ArchiveLimits = ArchiveLimits()) -> ArchiveManifest:
    """Unpack an archive holding one repository into `dest` (see `inspect_repository`), with the same
    writing rules as `extract_archive`. Raises ArchiveError."""
    manifest = inspect_repository(path, limits=limits)
    _extract(path, dest, manifest, limits)
    return manifest


def _extract(path: Path, dest: Path, manifest: ArchiveManifest, limits: ArchiveLimits) -> None:
    kind = _kind(path)  # the member list was already read and checked by the inspect step
    dest.mkdir(parents=True)
    budget = [limits.max_bytes]
    strip = f"{manifest.prefix}/" if manifest.prefix else ""
    try:
        if kind == "zip":
            with zipfile.ZipFile(path) as zf:
                for info in zf.infolist():
                    mode = (info.external_attr >> 16) & 0o777
                    _write(dest, _safe_name(info.filename), strip, info.is_dir(), mode,
                           lambda info=info: zf.open(info), budget)
        else:
            with tarfile.open(path, "r:*") as tf:
                for info in tf:
                    _write(dest, _safe_name(info.name), strip, info.isdir(), info.mode,
                           lambda info=info: tf.extractfile(info), budget)
    except (zipfile.BadZipFile, tarfile.TarError, zlib.error, EOFError) as exc:
        shutil.rmtree(dest, ignore_errors=True)
        raise ArchiveError(f"The archive is damaged and cannot be unpacked ({exc}). Create it again.") from exc
    except OSError as exc:  # e.g. a name too long for the file system
        shutil.rmtree(dest, ignore_errors=True)
        raise ArchiveError(f"The archive could not be unpacked: {exc.strerror or exc} "
                           f"({Path(exc.filename or '').name or 'an entry'}). Check for entries whose names "
                           "clash (a file and a folder with the same name) and create the archive again.") from exc
    except BaseException:
        shutil.rmtree(dest, ignore_errors=True)
        raise


def _write(dest: Path, name: str, strip: str, is_dir: bool, mode: int, opener, budget: list[int]) -> None:
    if not name or name.startswith("__MACOSX"):
        return
    if strip:
        if not (name + "/").startswith(strip):
            return
        name = name[len(strip):]
        if not name:
            return
    target = dest / name
    if is_dir:
        target.mkdir(parents=True, exist_ok=True)
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    with opener() as src:
        _copy_stream(src, target, budget)
    os.chmod(target, 0o755 if mode & 0o100 else 0o644)
