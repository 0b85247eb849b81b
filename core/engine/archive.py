"""Checking and unpacking submission archives (.zip, .tar.gz, .tgz, .tar).

`inspect_archive` reads only the member list (no file is written) so the upload form can refuse a
bad archive at once; `extract_archive` unpacks inside the worker under the same limits.
`inspect_repository` / `extract_repository` do the same for an archive holding one repository (an agent
endpoint's answer for one task). Refused:
links, devices, absolute paths, `..`, names over NAME_MAX_BYTES and paths over MEMBER_PATH_MAX_BYTES, too many
members, too many bytes, a suspicious compression ratio, an empty archive. A single top folder wrapping the task
folders is unwrapped.

Work per request is bounded: the limits are checked at every member as its header is read, so a pass stops at the
first member that crosses one (a 1 GiB member is refused at its header, before any of its data is decompressed);
a tar stream is never decompressed beyond its members' declared sizes plus a small allowance per member (a header
that under-reports its member's size, or a huge pax record, is refused there), and a zip's sizes come from its
central directory (nothing is decompressed to inspect it; extraction reads each member up to its declared size).
A zip's declared entry count and central-directory size are checked from its end records before zipfile reads the
directory (`_zip_directory_check`), so a directory of 400,000 entries is refused without being parsed.
"""
from __future__ import annotations

import bz2
import gzip
import hashlib
import lzma
import os
import shutil
import stat
import struct
import tarfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Iterable

from . import similarity


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
    #: The unpacked repository's content digest when asked for (`inspect_archive(content_sha256=True)`), else '':
    #: see `content_digest`. The same files give the same digest whatever the archive's format, compression,
    #: order of entries, timestamps, modes or wrapping folder.
    content_sha256: str = ""

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


_NOT_AN_ARCHIVE = ("The file is not a .zip or .tar.gz archive. Pack one folder per task, e.g. "
                   "`zip -r submission.zip TaskA TaskB` or `tar czf submission.tar.gz TaskA TaskB`.")
#: Decompressed bytes a tar stream may hold beyond its members' declared sizes: per member (its header, padding,
#: long-name and pax records) and once (the end-of-archive blocks, padded to the writer's record size).
_TAR_HEADER_ALLOWANCE = 8 * 1024
_TAR_END_ALLOWANCE = 1024 * 1024
_CHUNK = 64 * 1024
#: The longest file or folder name (one path component) Linux file systems store: NAME_MAX, in bytes of UTF-8.
NAME_MAX_BYTES = 255
#: The longest whole path Linux accepts (PATH_MAX, in bytes, with its terminating NUL).
PATH_MAX_BYTES = 4096
#: The longest path a member may have inside the archive, in bytes of UTF-8: PATH_MAX less 1024 bytes for the
#: folders the evaluator unpacks and copies it under (its runs and work folders, the task's folder), so a member
#: accepted at upload can be written by the worker.
MEMBER_PATH_MAX_BYTES = PATH_MAX_BYTES - 1024
_COMPRESSED_TAR = ((b"\x1f\x8b", lambda raw: gzip.GzipFile(fileobj=raw, mode="rb")),
                   (b"BZh", bz2.BZ2File), (b"\xfd7zXZ\x00", lzma.LZMAFile))


def _kind(path: Path) -> str:
    """"zip" or "tar" (plain, gzip, bzip2 or xz), from the file's magic bytes; reads at most one tar block, so a
    bomb costs nothing here. Raises ArchiveError for anything else."""
    if zipfile.is_zipfile(path):
        return "zip"
    try:
        with open(path, "rb") as raw:
            head = raw.read(8)
            raw.seek(0)
            opener = next((cls for magic, cls in _COMPRESSED_TAR if head.startswith(magic)), None)
            stream = opener(raw) if opener else raw
            try:
                block = stream.read(tarfile.BLOCKSIZE)
            finally:
                if opener:
                    stream.close()
    except (OSError, EOFError, zlib.error, lzma.LZMAError, ValueError):
        raise ArchiveError(_NOT_AN_ARCHIVE) from None
    if len(block) == tarfile.BLOCKSIZE and (block[257:262] == b"ustar" or not block.strip(b"\0")):  # or empty
        return "tar"
    raise ArchiveError(_NOT_AN_ARCHIVE)


def _safe_name(raw: str) -> str:
    name = raw.replace("\\", "/")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise ArchiveError(f"The archive holds an absolute path ({raw!r}); use paths relative to the archive root.")
    parts = [p for p in PurePosixPath(name).parts if p not in ("", ".")]
    if ".." in parts:
        raise ArchiveError(f"The archive holds a path that escapes its folder ({raw!r}); remove '..' from paths.")
    for part in parts:
        if len(part.encode("utf-8", "surrogateescape")) > NAME_MAX_BYTES:
            shown = part[:40] + "…" + part[-12:]
            raise ArchiveError(f"The archive holds a file or folder name of {len(part)} characters ({shown!r}); "
                               f"names may be at most {NAME_MAX_BYTES} bytes (the file system's limit), so it "
                               "cannot be unpacked. Shorten it and create the archive again.")
    path = "/".join(parts)
    size = len(path.encode("utf-8", "surrogateescape"))
    if size > MEMBER_PATH_MAX_BYTES:
        shown = path[:60] + "…" + path[-40:]
        raise ArchiveError(f"The archive holds a path of {size} bytes ({shown!r}); paths may be at most "
                           f"{MEMBER_PATH_MAX_BYTES} bytes (a whole path on the file system at most {PATH_MAX_BYTES}, "
                           "and the evaluator's folders take the rest) and each file or folder name at most "
                           f"{NAME_MAX_BYTES} bytes, so it cannot be unpacked. Move it up a few folders or shorten "
                           "the names, and create the archive again.")
    return path


class _Tally:
    """The running member count and declared bytes of one pass over an archive, checked against the limits at
    every member, so a pass stops at the first member that crosses one (docs: "too many members, too many bytes,
    a suspicious compression ratio")."""

    def __init__(self, limits: ArchiveLimits, compressed: int) -> None:
        self.limits, self.compressed = limits, compressed
        self.members = 0
        self.bytes = 0

    def add(self, size: int) -> None:
        """Count one member of `size` declared bytes. Raises ArchiveError as soon as a limit is crossed."""
        self.members += 1
        self.bytes += max(size, 0)
        limits = self.limits
        if self.members > limits.max_members:
            raise _too_many_entries(limits)
        if self.bytes > limits.max_bytes:
            raise ArchiveError(f"The archive unpacks to at least {self.bytes} bytes, over the limit of "
                               f"{limits.max_bytes}; remove build outputs and dependencies.")
        if self.compressed and self.bytes > limits.max_ratio * max(self.compressed, 1024):
            raise ArchiveError(f"The archive's compression ratio is over {limits.max_ratio}:1, which looks like "
                               "an archive bomb; it was refused.")


class _BoundedTarStream:
    """The decompressed bytes of a tar file, read forward only and never more than its members' declared sizes
    plus a small allowance per member (`_TAR_HEADER_ALLOWANCE`) and once (`_TAR_END_ALLOWANCE`): whatever the
    headers or a pax record claim, one pass decompresses at most that, plus one read. `decompressed` counts the
    bytes read so far. Raises ArchiveError past the bound."""

    def __init__(self, path: Path, tally: _Tally) -> None:
        self.raw = open(path, "rb")
        head = self.raw.read(8)
        self.raw.seek(0)
        opener = next((cls for magic, cls in _COMPRESSED_TAR if head.startswith(magic)), None)
        self.stream = opener(self.raw) if opener else self.raw
        self.tally = tally
        self.decompressed = 0

    def bound(self) -> int:
        """The most decompressed bytes this pass may read now (grows with every member the tally accepts)."""
        return self.tally.bytes + _TAR_HEADER_ALLOWANCE * (self.tally.members + 1) + _TAR_END_ALLOWANCE

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:
            size = _CHUNK
        if self.decompressed + size > self.bound():
            size = max(self.bound() - self.decompressed + 1, 0)  # one byte past the bound proves it is crossed
        data = self.stream.read(size)
        self.decompressed += len(data)
        if self.decompressed > self.bound():
            raise ArchiveError("The archive holds more data than its headers say (or a header record too large "
                               "to be real); it was refused.")
        return data

    def tell(self) -> int:
        return self.decompressed

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        target = offset if whence == os.SEEK_SET else self.decompressed + offset
        if whence not in (os.SEEK_SET, os.SEEK_CUR) or target < self.decompressed:
            raise OSError("a tar stream is read forward only")
        while self.decompressed < target:
            if not self.read(min(_CHUNK, target - self.decompressed)):
                break
        return self.decompressed

    def seekable(self) -> bool:
        return True

    def rest_is_padding(self) -> bool:
        """True when everything after the end-of-archive marker is zero bytes (within the bound)."""
        while chunk := self.read(_CHUNK):
            if chunk.strip(b"\0"):
                return False
        return True

    def close(self) -> None:
        try:
            if self.stream is not self.raw:
                self.stream.close()
        finally:
            self.raw.close()


class _StrictTarInfo(tarfile.TarInfo):
    """A tar header that cannot end the archive silently: after the first member, a header that is corrupt or cut
    short (what follows a member whose header under-reports its size) is an error, not the end of the archive."""

    @classmethod
    def fromtarfile(cls, tf):  # noqa: D102 - tarfile's hook
        try:
            return super().fromtarfile(tf)
        except (tarfile.InvalidHeaderError, tarfile.TruncatedHeaderError) as exc:
            if tf.offset:
                raise tarfile.SubsequentHeaderError(f"bad header at byte {tf.offset}: {exc}") from None
            raise


def _open_tar(path: Path, tally: _Tally) -> tuple[tarfile.TarFile, _BoundedTarStream]:
    stream = _BoundedTarStream(path, tally)
    try:
        return tarfile.open(fileobj=stream, mode="r:", tarinfo=_StrictTarInfo), stream  # type: ignore[arg-type]
    except BaseException:
        stream.close()
        raise


def _tar_member(info: tarfile.TarInfo, tally: _Tally) -> _Member:
    """Check one tar header (type, name, limits) before any of its data is read."""
    if not (info.isfile() or info.isdir()):
        raise ArchiveError(f"The archive holds a link or special file ({info.name!r}); "
                           "only regular files and folders are accepted.")
    member = _Member(_safe_name(info.name), info.size, info.isdir())
    tally.add(info.size if info.isfile() else 0)
    return member


#: Bytes one entry may take in a zip's central directory on average (its 46-byte header, name, extra field and
#: comment): the directory may be at most `max_members` times this. Real archives use 100-300 (a name of 50-200
#: bytes, the 24-36 byte time and owner extras of Info-ZIP and Windows); the limit bounds what is read at all.
ZIP_DIRECTORY_BYTES_PER_ENTRY = 1024
# APPNOTE.TXT (PKWARE, 6.3.10), https://pkware.cachefly.net/webdocs/casestudies/APPNOTE.TXT: 4.3.16 end of central
# directory record, 4.3.15 zip64 end of central directory locator, 4.3.14 zip64 end of central directory record,
# 4.3.12 central directory file header.
_EOCD = struct.Struct("<4s4H2LH")  # signature, disk, disk of the directory, entries here, entries, size, offset, comment
_EOCD64_LOCATOR = struct.Struct("<4sLQL")  # signature, disk of the zip64 record, its offset, disks
_EOCD64 = struct.Struct("<4sQ2H2L4Q")  # signature, record size, made by, needed, disk, disk of dir, entries here,
#                                        entries, directory size, directory offset
_CENTRAL_HEADER = struct.Struct("<4s4B4HL2L5H2L")
_CENTRAL_SIGNATURE = b"PK\x01\x02"


def _too_many_entries(limits: ArchiveLimits) -> ArchiveError:
    return ArchiveError(f"The archive holds more than {limits.max_members} entries; remove build "
                        "outputs, virtual environments and dependencies (node_modules, .venv, target).")


def _zip_directory_check(path: Path, limits: ArchiveLimits) -> None:
    """Refuse a zip whose central directory is over the limits before zipfile reads it (zipfile parses the whole
    directory into a ZipInfo per entry first: 400,000 empty entries cost seconds of CPU and 200 MiB).

    Reads the end of central directory record (APPNOTE.TXT 4.3.16) where zipfile finds it (the last 22 bytes,
    else the last signature in the final 64 KiB + 22 bytes) and, when the zip64 locator (4.3.15) stands before
    it, the zip64 end record (4.3.14) that zipfile then uses. Raises ArchiveError with the entry-limit message
    when the declared number of entries is over `limits.max_members` or the directory's size over
    `limits.max_members * ZIP_DIRECTORY_BYTES_PER_ENTRY` bytes; as damaged when the directory would not fit in
    the file before its end record. Then counts the directory's entries (4.3.12 headers, at most
    `max_members + 1` of them read), so a record that under-declares its entries is refused the same way.
    Returns None; leaves anything else (no end record at all, a bad header) to zipfile's own errors.
    """
    with open(path, "rb", buffering=_CHUNK) as raw:
        file_size = raw.seek(0, os.SEEK_END)
        tail_start = max(file_size - (1 << 16) - _EOCD.size, 0)
        raw.seek(tail_start)
        tail = raw.read()
        if tail[-_EOCD.size:-_EOCD.size + 4] == b"PK\x05\x06" and tail[-2:] == b"\0\0":
            at = len(tail) - _EOCD.size
        else:
            at = tail.rfind(b"PK\x05\x06")
        if at < 0 or len(tail) - at < _EOCD.size:
            return  # not a zip after all: zipfile says so
        end_at = tail_start + at
        _, _, _, _, entries, dir_size, _, _ = _EOCD.unpack_from(tail, at)
        directory_end = end_at
        if end_at >= _EOCD64_LOCATOR.size + _EOCD64.size:
            raw.seek(end_at - _EOCD64_LOCATOR.size)
            locator = raw.read(_EOCD64_LOCATOR.size)
            if locator[:4] == b"PK\x06\x07":
                raw.seek(end_at - _EOCD64_LOCATOR.size - _EOCD64.size)  # where zipfile reads it
                record = raw.read(_EOCD64.size)
                if record[:4] == b"PK\x06\x06":
                    _, _, _, _, _, _, _, entries, dir_size, _ = _EOCD64.unpack(record)
                    directory_end = end_at - _EOCD64_LOCATOR.size - _EOCD64.size
        if entries > limits.max_members or dir_size > limits.max_members * ZIP_DIRECTORY_BYTES_PER_ENTRY:
            raise _too_many_entries(limits)
        if dir_size > directory_end:
            raise ArchiveError(f"The archive is damaged and cannot be read (its central directory of {dir_size} "
                               f"bytes does not fit in the file of {file_size} bytes). Create it again.")
        raw.seek(directory_end - dir_size)
        counted = read = 0
        while read < dir_size:
            header = raw.read(_CENTRAL_HEADER.size)
            if len(header) < _CENTRAL_HEADER.size or header[:4] != _CENTRAL_SIGNATURE:
                return  # zipfile refuses it as damaged
            fields = _CENTRAL_HEADER.unpack(header)
            variable = fields[12] + fields[13] + fields[14]  # name, extra field, comment lengths
            raw.seek(variable, os.SEEK_CUR)
            read += _CENTRAL_HEADER.size + variable
            counted += 1
            if counted > limits.max_members:
                raise _too_many_entries(limits)


def _zip_member(info: zipfile.ZipInfo, tally: _Tally) -> _Member:
    """Check one zip entry of the central directory (type, name, limits); nothing is decompressed."""
    mode = (info.external_attr >> 16) & 0o170000
    if mode and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise ArchiveError(f"The archive holds a link or special file ({info.filename!r}); "
                           "only regular files and folders are accepted.")
    member = _Member(_safe_name(info.filename), info.file_size, info.is_dir())
    tally.add(0 if member.is_dir else info.file_size)
    return member


def _hashed(member: _Member) -> bool:
    return not member.is_dir and bool(member.name) and not member.name.startswith("__MACOSX")


def _sha256_stream(src, budget: list[int], sink=None) -> bytes:
    """The sha256 of what `src` hands out, read 1 MiB at a time; every byte counts against `budget` (ArchiveError
    past it, as when writing). With `sink` (an object with `write(bytes)`), every chunk is written to it too."""
    digest = hashlib.sha256()
    while chunk := src.read(1024 * 1024):
        budget[0] -= len(chunk)
        if budget[0] < 0:
            raise ArchiveError("The archive unpacks to more bytes than its header says; it was refused.")
        digest.update(chunk)
        if sink is not None:
            sink.write(chunk)
    return digest.digest()


def _hash_member(src, budget: list[int], name: str, hashes: dict[str, bytes],
                 sources: similarity.LineCollector | None) -> None:
    """hashes[name] = the sha256 of the member's data; with `sources`, its data also streams through the near-copy
    check's collector (`similarity.LineCollector.member`)."""
    sink = sources.member(name) if sources is not None else None
    hashes[name] = _sha256_stream(src, budget, sink)
    if sink is not None:
        sink.close()


def _zip_members(path: Path, tally: _Tally, hashes: dict[str, bytes] | None = None,
                 sources: similarity.LineCollector | None = None) -> list[_Member]:
    """The zip's members, every header checked; with `hashes`, then the sha256 of every file's data (read only
    once every header passed, so never more than the declared bytes the limits accepted)."""
    _zip_directory_check(path, tally.limits)
    with zipfile.ZipFile(path) as zf:
        infos = zf.infolist()
        members = [_zip_member(info, tally) for info in infos]
        if hashes is not None:
            budget = [tally.limits.max_bytes]
            for info, member in zip(infos, members):
                if _hashed(member):
                    with zf.open(info) as src:
                        _hash_member(src, budget, member.name, hashes, sources)
        return members


def _tar_members(path: Path, tally: _Tally, hashes: dict[str, bytes] | None = None,
                 sources: similarity.LineCollector | None = None) -> list[_Member]:
    """The tar's members, each header checked before its data is read; with `hashes`, the sha256 of every file's
    data as the stream passes it (the stream is decompressed once either way)."""
    tf, stream = _open_tar(path, tally)
    budget = [tally.limits.max_bytes]
    try:
        with tf:
            members = []
            for info in tf:
                member = _tar_member(info, tally)
                members.append(member)
                if hashes is not None and _hashed(member):
                    with tf.extractfile(info) as src:
                        _hash_member(src, budget, member.name, hashes, sources)
            if not stream.rest_is_padding():
                raise tarfile.ReadError("data after the end-of-archive marker")
            return members
    finally:
        stream.close()


def _members(path: Path, limits: ArchiveLimits, hashes: dict[str, bytes] | None = None,
             sources: similarity.LineCollector | None = None) -> tuple[str, list[_Member], int]:
    """(kind, members without macOS metadata, declared bytes), every limit checked at every member; with `hashes`,
    filled with {member name: sha256 of its data} for every file, whose data also streams through `sources` (given
    with `hashes` only: `_hash_member`)."""
    kind = _kind(path)
    tally = _Tally(limits, path.stat().st_size)
    try:
        members = (_zip_members(path, tally, hashes, sources) if kind == "zip"
                   else _tar_members(path, tally, hashes, sources))
    except (zipfile.BadZipFile, tarfile.TarError, EOFError, OSError, zlib.error, lzma.LZMAError) as exc:
        raise ArchiveError(f"The archive is damaged and cannot be read ({exc}). Create it again.") from exc
    return kind, [m for m in members if m.name and not m.name.startswith("__MACOSX")], tally.bytes


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
    if not tops:  # the example is a task of the split the upload is for: its first by name
        example = min(task_names) if task_names else "<task name>"
        raise ArchiveError("The archive holds files but no task folder. Put each task's repository in a "
                           f"folder named exactly as the task (e.g. {example}/start.sh).")
    lower = {n.lower() for n in task_names}
    if len(tops) == 1 and not root_files and tops[0].lower() not in lower:
        inner = tuple(_top_folders(members, tops[0]))
        if inner:  # a wrapping folder holds folders; a lone folder of files is a (misnamed) task folder
            return tops[0], inner
    return "", tuple(tops)


def _checked_members(path: Path, limits: ArchiveLimits, hashes: dict[str, bytes] | None = None,
                     sources: similarity.LineCollector | None = None) -> tuple[list[_Member], int]:
    """The archive's members after the limit and clash checks, with their total size in bytes."""
    _, members, total = _members(path, limits, hashes, sources)
    _check_clashes(members)
    return members, total


def content_digest(files: dict[str, bytes], prefix: str = "") -> str:
    """The content digest of an unpacked repository: hex sha256 over its files sorted by path (UTF-8 bytes), each
    as `<path>` NUL `<32-byte sha256 of its contents>` (NUL cannot occur in a member name, the digest has a fixed
    length: no two lists give the same input).

    `files`: {member path inside the archive: sha256 digest (32 bytes) of its data}; `prefix`: the wrapping folder
    that unpacking strips ('' for none): files outside it are not unpacked and not counted, the others are named
    relative to it. Folders, modes, timestamps and the order of entries do not count.
    """
    strip = f"{prefix}/" if prefix else ""
    entries = sorted((name[len(strip):].encode("utf-8", "surrogateescape"), digest)
                     for name, digest in files.items() if name.startswith(strip) and name != prefix)
    total = hashlib.sha256()
    for name, digest in entries:
        total.update(name + b"\0" + digest)
    return total.hexdigest()


def inspect_archive(path: Path, *, limits: ArchiveLimits = ArchiveLimits(),
                    task_names: Iterable[str] = (), content_sha256: bool = False,
                    sources: similarity.LineCollector | None = None) -> ArchiveManifest:
    """Check an archive without writing anything. Raises ArchiveError with a user-facing reason.

    A single top folder that holds folders and is not a task name (in any letter case: `todolist/` is the task
    `TodoList` misnamed, not a wrapper) is treated as a wrapper and unwrapped.

    `content_sha256=True` also reads every file's data (bounded like extraction: a zip's once all its headers
    passed the limits, a tar's as its stream is read anyway) for the manifest's `content_sha256`
    (`content_digest` of what `extract_archive` would write); every file's data then also streams through
    `sources` (with `content_sha256=True`), the near-copy check's `similarity.LineCollector`.
    """
    hashes: dict[str, bytes] | None = {} if content_sha256 else None
    members, total = _checked_members(path, limits, hashes, sources if content_sha256 else None)
    prefix, folders = _prefix(members, frozenset(task_names))
    digest = content_digest(hashes, prefix) if hashes is not None else ""
    return ArchiveManifest(prefix=prefix, folders=folders, members=len(members), total_bytes=total,
                           content_sha256=digest)


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
    # The member list was read and checked by the inspect step; every header is checked again as it is met (the
    # file is read once more), the data is bounded by the tally and every byte written counts against `budget`.
    kind = _kind(path)
    dest.mkdir(parents=True)
    budget = [limits.max_bytes]
    strip = f"{manifest.prefix}/" if manifest.prefix else ""
    tally = _Tally(limits, path.stat().st_size)
    try:
        if kind == "zip":
            with zipfile.ZipFile(path) as zf:
                for info in zf.infolist():
                    mode = (info.external_attr >> 16) & 0o777
                    member = _zip_member(info, tally)
                    _write(dest, member.name, strip, member.is_dir, mode, lambda info=info: zf.open(info), budget)
        else:
            tf, stream = _open_tar(path, tally)
            try:
                with tf:
                    for info in tf:
                        member = _tar_member(info, tally)
                        _write(dest, member.name, strip, member.is_dir, info.mode,
                               lambda info=info: tf.extractfile(info), budget)
            finally:
                stream.close()
    except (zipfile.BadZipFile, tarfile.TarError, zlib.error, lzma.LZMAError, EOFError) as exc:
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
