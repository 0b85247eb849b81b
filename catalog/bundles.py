"""A task's private files (hidden tests, reference solution) as one content-addressed bundle in object storage.

At import every task's private files are packed into a deterministic tar.gz (members sorted, mtimes 0, owners
root/root with empty names, modes 0644/0755, gzip header without name or time), so the same files always give the
same bytes and the same sha256. The bundle is stored under `bundles/<sha256>.tar.gz` in the `benchmarks` storage
(`STORAGES["benchmarks"]`: BENCHMARK_ROOT on the filesystem by default, a bucket prefix on S3) and its hash is
recorded on the Task (`Task.bundle_sha256`). A bundle holds `hidden/...` (the task folder's hidden files) and, when
the benchmark ships one, `reference/...` (the reference solution).

A worker resolves a task's folders (`task_hidden_dir`, `task_reference_dir`):
- the import's own copy, `Benchmark.storage_dir`, when it is a complete folder under this host's BENCHMARK_ROOT (the
  host that imported the benchmark: `make run`, the web host, one-machine sites);
- else the bundle: fetched by hash from the storage, its sha256 verified, unpacked into
  `EVALUATION_CACHE_ROOT/bundles/<sha256>/` (built aside and renamed in, so two tasks of one worker fetching the same
  bundle do not race; a finished folder is never written again).

Benchmarks imported before bundles existed get theirs lazily: `task_bundles_ensure` (called when a run is opened
on the web host, and by the migration that added the field) packs them from `storage_dir`.
"""
from __future__ import annotations

import gzip
import hashlib
import logging
import os
import shutil
import tarfile
import tempfile
import uuid
from pathlib import Path
from typing import BinaryIO, Iterable

from django.conf import settings
from django.core.files import File
from django.core.files.storage import storages

from core.sandbox import SandboxError

log = logging.getLogger(__name__)

#: The alias in settings.STORAGES of the storage holding the bundles.
STORAGE_ALIAS = "benchmarks"
SKIP = {"__pycache__", ".venv", "venv", "target", ".pytest_cache"}
CHUNK = 1024 * 1024


class BundleError(SandboxError):
    """A task's bundle is missing from the storage, does not match its hash, or cannot be unpacked: a platform
    fault (the task is retried, then `harness_error`, never scored)."""


def bundle_storage():
    """The storage holding task bundles (settings.STORAGES["benchmarks"])."""
    return storages[STORAGE_ALIAS]


def bundle_name(sha256: str) -> str:
    """The storage name of the bundle with this hash: `bundles/<sha256>.tar.gz`."""
    return f"bundles/{sha256}.tar.gz"


def _members(root: Path, prefix: str) -> Iterable[tuple[str, Path]]:
    yield prefix, root
    for path in sorted(root.rglob("*"), key=lambda p: p.relative_to(root).as_posix()):
        rel = path.relative_to(root)
        if SKIP.intersection(rel.parts):
            continue
        yield f"{prefix}/{rel.as_posix()}", path


def _tar_info(name: str, path: Path) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
    if path.is_symlink():
        info.type, info.linkname, info.mode = tarfile.SYMTYPE, os.readlink(path), 0o777
    elif path.is_dir():
        info.type, info.mode = tarfile.DIRTYPE, 0o755
    else:
        info.size = path.stat().st_size
        info.mode = 0o755 if path.stat().st_mode & 0o100 else 0o644
    return info


def bundle_pack(*, hidden: Path, reference: Path | None, out: BinaryIO) -> None:
    """Write the deterministic tar.gz of a task's folders to `out`: `hidden/` from `hidden`, `reference/` from
    `reference` (None or absent: none). Caches (__pycache__, .venv, target, ...) are left out; symbolic links are
    kept as links. The same files give the same bytes."""
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0, compresslevel=6) as gz, \
            tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for prefix, root in (("hidden", hidden), ("reference", reference)):
            if root is None or not root.is_dir():
                continue
            for name, path in _members(root, prefix):
                info = _tar_info(name, path)
                if info.isfile():
                    with open(path, "rb") as handle:
                        tar.addfile(info, handle)
                else:
                    tar.addfile(info)


def _sha256_of(handle: BinaryIO) -> str:
    digest = hashlib.sha256()
    while chunk := handle.read(CHUNK):
        digest.update(chunk)
    return digest.hexdigest()


def bundle_store(*, hidden: Path, reference: Path | None) -> str:
    """Pack a task's folders (`bundle_pack`) and store the bundle under its content hash unless the storage has
    it already; returns the sha256 (64 hex characters). Raises OSError (and the storage's errors, e.g. botocore's)
    when the storage cannot be written."""
    with tempfile.TemporaryFile() as tmp:
        bundle_pack(hidden=hidden, reference=reference, out=tmp)
        tmp.seek(0)
        sha256 = _sha256_of(tmp)
        tmp.seek(0)
        storage, name = bundle_storage(), bundle_name(sha256)
        if not storage.exists(name):
            saved = storage.save(name, File(tmp, name=name))
            if saved != name:  # another import stored the same bundle meanwhile (filesystem storage renames)
                storage.delete(saved)
    return sha256


def local_storage_dir(benchmark) -> Path | None:
    """The import's own copy of `benchmark`'s private files when this host has it: `storage_dir` is a complete
    folder (it holds `.complete`) under this host's BENCHMARK_ROOT. None on other hosts (worker hosts)."""
    if not benchmark.storage_dir:
        return None
    folder = Path(benchmark.storage_dir)
    root = Path(settings.BENCHMARK_ROOT).resolve()
    if not folder.resolve().is_relative_to(root) or not (folder / ".complete").is_file():
        return None
    return folder


def _local_task_dirs(task) -> tuple[Path, Path | None] | None:
    folder = local_storage_dir(task.benchmark)
    if folder is None:
        return None
    reference = folder / "references" / task.name
    return folder / "tasks" / task.name, (reference if reference.is_dir() else None)


def task_bundles_ensure(*, tasks: Iterable) -> int:
    """Give every task without a bundle hash one, packed from the import's folder on this host (benchmarks
    imported before bundles existed). Tasks whose folder this host does not have are left as they are (a worker
    then reports BundleError for them). Returns how many bundles were made."""
    made = 0
    for task in tasks:
        if task.bundle_sha256:
            continue
        dirs = _local_task_dirs(task)
        if dirs is None:
            log.warning("task %s of %s has no bundle and this host has no copy of its files", task.name,
                        task.benchmark)
            continue
        task.bundle_sha256 = bundle_store(hidden=dirs[0], reference=dirs[1])
        type(task).objects.filter(pk=task.pk).update(bundle_sha256=task.bundle_sha256)
        made += 1
    return made


def bundle_cache_root() -> Path:
    """Where this worker keeps unpacked bundles: EVALUATION_CACHE_ROOT/bundles (mode 0700)."""
    root = Path(settings.EVALUATION_CACHE_ROOT) / "bundles"
    root.mkdir(parents=True, exist_ok=True)
    root.chmod(0o700)
    return root


def bundle_fetch(*, sha256: str) -> Path:
    """The unpacked bundle with hash `sha256` in this worker's cache (`hidden/`, maybe `reference/` inside),
    fetched from the storage first when absent. The download is streamed to a temporary file and its sha256
    checked before anything is unpacked; the folder is built aside and renamed into place (atomic: a concurrent
    fetch of the same bundle keeps whichever finished first). Raises BundleError when the storage lacks the
    bundle, its bytes do not match the hash or it does not unpack."""
    if len(sha256) != 64 or any(c not in "0123456789abcdef" for c in sha256):
        raise BundleError(f"not a bundle hash: {sha256!r}")
    root = bundle_cache_root()
    final = root / sha256
    if final.is_dir():
        return final
    staging = root / f".{sha256}.{uuid.uuid4().hex[:8]}.tmp"
    try:
        with tempfile.TemporaryFile(dir=root) as tmp:
            digest = hashlib.sha256()
            try:
                with bundle_storage().open(bundle_name(sha256), "rb") as src:
                    while chunk := src.read(CHUNK):
                        digest.update(chunk)
                        tmp.write(chunk)
            except FileNotFoundError as exc:
                raise BundleError(f"the bundle {sha256[:12]}… is not in the object storage") from exc
            except OSError as exc:
                raise BundleError(f"the bundle {sha256[:12]}… could not be read: {exc}") from exc
            except Exception as exc:  # the S3 client's own errors (botocore ClientError, a missing key, ...)
                if type(exc).__name__ in ("ClientError", "NoSuchKey"):
                    raise BundleError(f"the bundle {sha256[:12]}… is not in the object storage: {exc}") from exc
                raise
            if digest.hexdigest() != sha256:
                raise BundleError(f"the bundle {sha256[:12]}… does not match its hash (got {digest.hexdigest()[:12]}…)"
                                  ": the object storage returned other bytes")
            tmp.seek(0)
            staging.mkdir(mode=0o700)
            try:
                with tarfile.open(fileobj=tmp, mode="r:gz") as tar:
                    tar.extractall(staging, filter="data")
            except (tarfile.TarError, OSError, EOFError) as exc:
                raise BundleError(f"the bundle {sha256[:12]}… does not unpack: {exc}") from exc
        try:
            staging.rename(final)
        except OSError:  # another fetch of the same bundle finished first
            if not final.is_dir():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return final


def _bundle_dirs(task) -> tuple[Path, Path | None]:
    if not task.bundle_sha256:
        raise BundleError(f"the task {task.name} of {task.benchmark} has no bundle and this host has no copy of its "
                          "files: open a run on the host that imported it (it packs the bundle), or import the "
                          "benchmark again")
    folder = bundle_fetch(sha256=task.bundle_sha256)
    reference = folder / "reference"
    return folder / "hidden", (reference if reference.is_dir() else None)


def task_hidden_dir(task) -> Path:
    """The folder holding the task's hidden files on this host: the import's copy when this host has it, else the
    verified bundle unpacked in this worker's cache. Raises BundleError (see `bundle_fetch`)."""
    local = _local_task_dirs(task)
    return local[0] if local else _bundle_dirs(task)[0]


def task_reference_dir(task) -> Path | None:
    """The folder holding the task's reference solution on this host (as `task_hidden_dir`), or None when the
    benchmark ships none. Raises BundleError (see `bundle_fetch`)."""
    local = _local_task_dirs(task)
    return local[1] if local else _bundle_dirs(task)[1]
