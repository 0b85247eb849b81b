"""The content digest of an archive (core.engine.archive.content_digest, ArchiveManifest.content_sha256): the same
files however packed give the same digest, any change of a path or a byte another one (docs/lifecycle.md, duplicates;
the upload refusal that uses it is tested in tests/submissions/test_duplicate_content.py). No database: these run in
the mutation selection (setup.cfg)."""
from __future__ import annotations

import hashlib
import io
import shutil
import subprocess
import tarfile
import zipfile
from pathlib import Path

import pytest

from core.engine.archive import ArchiveError, _sha256_stream, content_digest, inspect_archive

ROOT = Path(__file__).resolve().parents[2]
ALPHA = ROOT / "benchmarks" / "demo-submissions" / "agent-alpha"
TASKS = sorted(p.name for p in ALPHA.iterdir() if p.is_dir())


def _pack(tmp_path: Path, name: str, *command: str, src: Path = ALPHA) -> bytes:
    """Run `command` (with {out} for the archive's path) in a copy of `src`; the archive's bytes."""
    work = tmp_path / f"src-{name}"
    if not work.exists():
        shutil.copytree(src, work)
    out = tmp_path / name
    subprocess.run([c.replace("{out}", str(out)) for c in command], cwd=work, check=True, capture_output=True)
    return out.read_bytes()


def zip9(tmp_path, **kw):
    return _pack(tmp_path, "nine.zip", "zip", "-9", "-q", "-r", "{out}", *TASKS, **kw)


def zip0(tmp_path, **kw):
    return _pack(tmp_path, "zero.zip", "zip", "-0", "-q", "-r", "{out}", *TASKS, **kw)


def targz(tmp_path, **kw):
    return _pack(tmp_path, "same.tar.gz", "tar", "czf", "{out}", *TASKS, **kw)


def test_the_content_digest_is_the_same_for_the_same_files_however_packed(tmp_path):
    archives = {"zip -9": zip9(tmp_path), "zip -0": zip0(tmp_path), "tar czf": targz(tmp_path)}
    assert len(set(archives.values())) == 3  # three different files
    wrapped = tmp_path / "wrapped"
    (wrapped / "run-1").mkdir(parents=True)
    for task in TASKS:
        shutil.copytree(ALPHA / task, wrapped / "run-1" / task)
    archives["wrapped"] = _pack(tmp_path, "wrapped.zip", "zip", "-q", "-r", "{out}", "run-1", src=wrapped)
    digests = {}
    for label, data in archives.items():
        path = tmp_path / ("check.tar.gz" if label == "tar czf" else "check.zip")
        path.write_bytes(data)
        digests[label] = inspect_archive(path, task_names=TASKS, content_sha256=True).content_sha256
        assert inspect_archive(path, task_names=TASKS).content_sha256 == ""  # only when asked for
    assert len(set(digests.values())) == 1 and len(digests["zip -9"]) == 64, digests

    changed = tmp_path / "changed"
    shutil.copytree(ALPHA, changed)
    first = next(p for p in sorted(changed.rglob("*")) if p.is_file())
    first.write_bytes(first.read_bytes() + b"\n")
    path = tmp_path / "changed.zip"
    path.write_bytes(_pack(tmp_path, "c.zip", "zip", "-9", "-q", "-r", "{out}", *TASKS, src=changed))
    assert inspect_archive(path, task_names=TASKS, content_sha256=True).content_sha256 != digests["zip -9"]
    renamed = tmp_path / "renamed"
    shutil.copytree(ALPHA, renamed)
    first = next(p for p in sorted(renamed.rglob("*")) if p.is_file())
    first.rename(first.with_name(first.name + ".bak"))
    path.write_bytes(_pack(tmp_path, "r.zip", "zip", "-9", "-q", "-r", "{out}", *TASKS, src=renamed))
    assert inspect_archive(path, task_names=TASKS, content_sha256=True).content_sha256 != digests["zip -9"]



def _expected(files: dict[str, bytes]) -> str:
    """The documented format, written out: sha256 over `<path>` NUL `<sha256 of its contents>`, sorted by path."""
    total = hashlib.sha256()
    for name in sorted(files, key=lambda n: n.encode()):
        total.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return total.hexdigest()


FILES = {"TodoList/start.sh": b"#!/bin/sh\nexec python app.py\n", "TodoList/app.py": b"print('hi')\n",
         "Notes/Zeta.txt": b"", "Notes/alpha.txt": b"a" * 70_000}


def _zip(path: Path, entries: list[tuple[str, bytes | None]]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries:
            if data is None:
                zf.writestr(zipfile.ZipInfo(name), b"")  # a folder entry (name ends in /)
            else:
                zf.writestr(name, data)
    return path


def _tar(path: Path, entries: list[tuple[str, bytes | None]], mtime: int = 0) -> Path:
    with tarfile.open(path, "w:gz") as tf:
        for name, data in entries:
            info = tarfile.TarInfo(name.rstrip("/"))
            info.mtime = mtime
            if data is None:
                info.type = tarfile.DIRTYPE
                tf.addfile(info)
            else:
                info.size, info.mode = len(data), 0o755
                tf.addfile(info, io.BytesIO(data))
    return path


def _digest(path: Path) -> str:
    return inspect_archive(path, task_names=["TodoList", "Notes"], content_sha256=True).content_sha256


def test_the_digest_is_the_documented_format_for_zip_and_tar_in_any_order(tmp_path):
    expected = _expected(FILES)
    in_order = list(FILES.items())
    folders = [("Notes/", None), ("TodoList/", None)]
    assert _digest(_zip(tmp_path / "a.zip", in_order)) == expected
    assert _digest(_zip(tmp_path / "b.zip", folders + in_order[::-1])) == expected
    assert _digest(_tar(tmp_path / "c.tar.gz", folders + in_order, mtime=1_700_000_000)) == expected
    assert _digest(_tar(tmp_path / "d.tar.gz", in_order[::-1])) == expected


def test_the_wrapping_folder_and_macos_metadata_do_not_count(tmp_path):
    wrapped = [("run-1/", None)] + [(f"run-1/{name}", data) for name, data in FILES.items()]
    metadata = [("__MACOSX/run-1/TodoList/._app.py", b"\0\5\26\7 apple")]
    assert _digest(_zip(tmp_path / "w.zip", wrapped + metadata)) == _expected(FILES)
    assert _digest(_tar(tmp_path / "w.tar.gz", wrapped)) == _expected(FILES)
    beside = list(FILES.items()) + [("__MACOSX/TodoList/._app.py", b"\0\5\26\7 apple")]  # no wrapper to cut it
    assert _digest(_zip(tmp_path / "m.zip", beside)) == _expected(FILES)


def test_a_name_that_is_not_utf8_has_a_digest_of_its_own(tmp_path):
    # tarfile hands such a name over with surrogate escapes; the digest hashes its original bytes.
    digests = []
    for byte in ("\xff", "\xfe"):
        path = tmp_path / f"n{len(digests)}.tar.gz"
        with tarfile.open(path, "w:gz", format=tarfile.GNU_FORMAT, encoding="latin-1") as tf:
            for name in (f"TodoList/{byte}.txt", "Notes/a.txt"):
                info = tarfile.TarInfo(name)
                info.size = 1
                tf.addfile(info, io.BytesIO(b"x"))
        digests.append(_digest(path))
    assert len(set(digests)) == 2 and all(len(d) == 64 for d in digests)


@pytest.mark.parametrize("change", [
    {"TodoList/app.py": b"print('hi')\n\n"},  # one byte more
    {"TodoList/app.py": b"print('ho')\n"},  # one byte other
    {"Notes/empty.txt": b""},  # an empty file added
], ids=["longer", "other-byte", "empty-file-added"])
def test_any_change_of_contents_gives_another_digest(tmp_path, change):
    changed = {**FILES, **change}
    assert _digest(_zip(tmp_path / "x.zip", list(changed.items()))) == _expected(changed) != _expected(FILES)


def test_a_renamed_file_gives_another_digest(tmp_path):
    renamed = {("Notes/Alpha.txt" if name == "Notes/alpha.txt" else name): data for name, data in FILES.items()}
    assert _digest(_zip(tmp_path / "r.zip", list(renamed.items()))) == _expected(renamed) != _expected(FILES)


def test_content_digest_keeps_only_the_files_under_the_prefix_named_relative_to_it():
    a, b = hashlib.sha256(b"a").digest(), hashlib.sha256(b"b").digest()
    inside = content_digest({"w/TodoList/a": a, "w": b, "other/b": b, "wx/c": b}, "w")
    assert inside == content_digest({"TodoList/a": a}) == _expected({"TodoList/a": b"a"})
    assert content_digest({}) == hashlib.sha256(b"").hexdigest()


def test_hashing_stops_at_the_byte_budget():
    budget = [5]
    with pytest.raises(ArchiveError, match="^The archive unpacks to more bytes than its header says; it was refused\\.$"):
        _sha256_stream(io.BytesIO(b"x" * 6), budget)
    budget = [6]
    assert _sha256_stream(io.BytesIO(b"x" * 6), budget) == hashlib.sha256(b"x" * 6).digest() and budget == [0]
