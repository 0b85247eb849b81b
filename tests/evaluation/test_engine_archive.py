"""Checking and unpacking submission archives (core.engine.archive): real zip and tar files."""
from __future__ import annotations

import io
import os
import stat
import tarfile
import zipfile
from pathlib import Path

import pytest

from core.engine.archive import (
    ArchiveError,
    ArchiveLimits,
    extract_archive,
    inspect_archive,
)

TASKS = ["TodoList", "Notes"]


# --- builders ------------------------------------------------------------------------------------
def make_zip(path: Path, entries: list[tuple], *, compression=zipfile.ZIP_DEFLATED) -> Path:
    """entries: (name, data) or (name, data, unix mode incl. file type bits); names ending in / are folders."""
    with zipfile.ZipFile(path, "w", compression=compression) as zf:
        for name, data, *mode in entries:
            info = zipfile.ZipInfo(name)
            info.compress_type = compression
            if mode:
                info.external_attr = mode[0] << 16
            elif name.endswith("/"):
                info.external_attr = (stat.S_IFDIR | 0o755) << 16
            else:
                info.external_attr = (stat.S_IFREG | 0o644) << 16
            zf.writestr(info, data)
    return path


def make_tar(path: Path, entries: list[tarfile.TarInfo | tuple]) -> Path:
    """entries: TarInfo (special members) or (name, data[, mode]) regular files; gzip when path ends in .gz."""
    with tarfile.open(path, "w:gz" if path.name.endswith("gz") else "w") as tf:
        for entry in entries:
            if isinstance(entry, tarfile.TarInfo):
                tf.addfile(entry)
                continue
            name, data, *mode = entry
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = mode[0] if mode else 0o644
            tf.addfile(info, io.BytesIO(data))
    return path


def tar_special(name: str, kind: bytes, linkname: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = linkname
    if kind in (tarfile.CHRTYPE, tarfile.BLKTYPE):
        info.devmajor, info.devminor = 1, 3
    return info


GOOD = [("TodoList/start.sh", b"#!/bin/bash\necho hi\n", stat.S_IFREG | 0o755), ("TodoList/app.py", b"print(1)\n"),
        ("Notes/manage.py", b"print(2)\n")]


def files_under(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


# --- unsafe members ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["../evil.txt", "TodoList/../../evil.txt", "TodoList/..\\..\\evil.txt"])
def test_zip_with_parent_path_is_refused(tmp_path, name):
    archive = make_zip(tmp_path / "s.zip", GOOD + [(name, b"x")])

    with pytest.raises(ArchiveError, match="escapes its folder"):
        inspect_archive(archive)


@pytest.mark.parametrize("name", ["/etc/evil.txt", "C:/evil.txt", "\\evil.txt"])
def test_zip_with_absolute_path_is_refused(tmp_path, name):
    archive = make_zip(tmp_path / "s.zip", GOOD + [(name, b"x")])

    with pytest.raises(ArchiveError, match="absolute path"):
        inspect_archive(archive)


def test_zip_with_symlink_is_refused(tmp_path):
    archive = make_zip(tmp_path / "s.zip", GOOD + [("TodoList/link", b"/etc/passwd", stat.S_IFLNK | 0o777)])

    with pytest.raises(ArchiveError, match="link or special file") as err:
        inspect_archive(archive)
    assert "TodoList/link" in str(err.value)


@pytest.mark.parametrize("suffix", ["tar.gz", "tar"])
@pytest.mark.parametrize("member, reason", [
    (("../evil.txt", b"x"), "escapes its folder"),
    (("/tmp/evil.txt", b"x"), "absolute path"),
    (tar_special("TodoList/link", tarfile.SYMTYPE, "/etc/passwd"), "link or special file"),
    (tar_special("TodoList/hard", tarfile.LNKTYPE, "TodoList/app.py"), "link or special file"),
    (tar_special("TodoList/null", tarfile.CHRTYPE), "link or special file"),
    (tar_special("TodoList/disk", tarfile.BLKTYPE), "link or special file"),
    (tar_special("TodoList/pipe", tarfile.FIFOTYPE), "link or special file"),
], ids=["parent", "absolute", "symlink", "hardlink", "char-device", "block-device", "fifo"])
def test_tar_with_unsafe_member_is_refused(tmp_path, suffix, member, reason):
    archive = make_tar(tmp_path / f"s.{suffix}", GOOD + [member])

    with pytest.raises(ArchiveError, match=reason):
        inspect_archive(archive)


def test_extracting_an_unsafe_archive_writes_nothing(tmp_path):
    archive = make_tar(tmp_path / "s.tar.gz", [("TodoList/start.sh", b"ok"), ("../evil.txt", b"x"),
                                               ("TodoList/../../evil2.txt", b"x")])
    dest = tmp_path / "out" / "dest"

    with pytest.raises(ArchiveError):
        extract_archive(archive, dest)

    assert not dest.exists()
    assert not (tmp_path / "out" / "evil.txt").exists()
    assert not (tmp_path / "evil.txt").exists() and not (tmp_path / "evil2.txt").exists()


# --- unusable archives ---------------------------------------------------------------------------
def test_empty_zip_is_refused(tmp_path):
    archive = make_zip(tmp_path / "s.zip", [])

    with pytest.raises(ArchiveError, match="empty"):
        inspect_archive(archive)


def test_archive_with_only_folders_is_refused_as_empty(tmp_path):
    archive = make_zip(tmp_path / "s.zip", [("TodoList/", b""), ("Notes/", b"")])

    with pytest.raises(ArchiveError, match="empty"):
        inspect_archive(archive)


def test_empty_tar_is_refused(tmp_path):
    archive = make_tar(tmp_path / "s.tar.gz", [])

    with pytest.raises(ArchiveError, match="empty"):
        inspect_archive(archive)


@pytest.mark.parametrize("content", [b"just some text, not an archive\n", b"", b"PK\x03\x04garbage"])
def test_non_archive_file_is_refused(tmp_path, content):
    path = tmp_path / "s.zip"
    path.write_bytes(content)

    with pytest.raises(ArchiveError, match="not a .zip or .tar.gz archive|damaged"):
        inspect_archive(path)


def test_files_at_the_root_without_task_folder_are_refused(tmp_path):
    archive = make_zip(tmp_path / "s.zip", [("start.sh", b"x"), ("app.py", b"y")])

    with pytest.raises(ArchiveError, match="no task folder"):
        inspect_archive(archive)


@pytest.mark.parametrize("builder", ["zip", "tar.gz"])
def test_too_many_members_are_refused(tmp_path, builder):
    entries = [(f"TodoList/f{i}.txt", b"x") for i in range(6)]
    archive = make_zip(tmp_path / "s.zip", entries) if builder == "zip" else make_tar(tmp_path / "s.tar.gz", entries)

    with pytest.raises(ArchiveError, match="more than 5 entries"):
        inspect_archive(archive, limits=ArchiveLimits(max_members=5))


@pytest.mark.parametrize("builder", ["zip", "tar.gz"])
def test_too_many_bytes_are_refused(tmp_path, builder):
    entries = [("TodoList/big.bin", os.urandom(3000))]
    archive = make_zip(tmp_path / "s.zip", entries) if builder == "zip" else make_tar(tmp_path / "s.tar.gz", entries)

    with pytest.raises(ArchiveError, match="over the limit of 2000"):
        inspect_archive(archive, limits=ArchiveLimits(max_bytes=2000))


@pytest.mark.parametrize("builder", ["zip", "tar.gz"])
def test_bomb_like_compression_ratio_is_refused(tmp_path, builder):
    entries = [("TodoList/zeros.bin", b"\0" * 2_000_000), ("TodoList/start.sh", b"x")]
    archive = make_zip(tmp_path / "s.zip", entries) if builder == "zip" else make_tar(tmp_path / "s.tar.gz", entries)

    with pytest.raises(ArchiveError, match="compression ratio"):
        inspect_archive(archive, limits=ArchiveLimits(max_ratio=50))
    with pytest.raises(ArchiveError, match="compression ratio"):
        extract_archive(archive, tmp_path / "dest", limits=ArchiveLimits(max_ratio=50))
    assert not (tmp_path / "dest").exists()


def test_ordinary_archive_is_within_default_limits(tmp_path):
    archive = make_zip(tmp_path / "s.zip", GOOD)

    manifest = inspect_archive(archive, task_names=TASKS)

    assert manifest.members == 3
    assert manifest.folders == ("Notes", "TodoList")
    assert manifest.matched(TASKS) == (["TodoList", "Notes"], [], [])


# --- wrapping folder -----------------------------------------------------------------------------
@pytest.mark.parametrize("builder", ["zip", "tar.gz"])
def test_single_wrapping_folder_is_unwrapped(tmp_path, builder):
    entries = [(f"my-submission/{name}", data, *mode) for name, data, *mode in GOOD]
    archive = make_zip(tmp_path / "s.zip", entries) if builder == "zip" else make_tar(tmp_path / "s.tar.gz", entries)
    dest = tmp_path / "dest"

    manifest = extract_archive(archive, dest, task_names=TASKS)

    assert manifest.prefix == "my-submission"
    assert manifest.folders == ("Notes", "TodoList")
    assert files_under(dest) == {"TodoList/start.sh", "TodoList/app.py", "Notes/manage.py"}


def test_single_top_folder_named_as_a_task_is_not_unwrapped(tmp_path):
    archive = make_zip(tmp_path / "s.zip", [("TodoList/start.sh", b"x"), ("TodoList/src/app.py", b"y")])
    dest = tmp_path / "dest"

    manifest = extract_archive(archive, dest, task_names=TASKS)

    assert manifest.prefix == ""
    assert manifest.folders == ("TodoList",)
    assert files_under(dest) == {"TodoList/start.sh", "TodoList/src/app.py"}
    assert manifest.matched(TASKS) == (["TodoList"], ["Notes"], [])


def test_macos_metadata_folder_does_not_stop_unwrapping(tmp_path):
    entries = [(f"wrap/{name}", data, *mode) for name, data, *mode in GOOD]
    archive = make_zip(tmp_path / "s.zip", entries + [("__MACOSX/wrap/._app.py", b"junk")])
    dest = tmp_path / "dest"

    manifest = extract_archive(archive, dest, task_names=TASKS)

    assert manifest.prefix == "wrap"
    assert files_under(dest) == {"TodoList/start.sh", "TodoList/app.py", "Notes/manage.py"}


# --- extraction ----------------------------------------------------------------------------------
@pytest.mark.parametrize("builder", ["zip", "tar.gz"])
def test_executable_bits_survive_extraction(tmp_path, builder):
    entries = [("TodoList/start.sh", b"#!/bin/bash\n", stat.S_IFREG | 0o755 if builder == "zip" else 0o755),
               ("TodoList/app.py", b"x", stat.S_IFREG | 0o600 if builder == "zip" else 0o600)]
    archive = make_zip(tmp_path / "s.zip", entries) if builder == "zip" else make_tar(tmp_path / "s.tar.gz", entries)
    dest = tmp_path / "dest"

    extract_archive(archive, dest, task_names=TASKS)

    assert stat.S_IMODE((dest / "TodoList/start.sh").stat().st_mode) == 0o755
    assert stat.S_IMODE((dest / "TodoList/app.py").stat().st_mode) == 0o644


def test_extracted_files_have_their_content(tmp_path):
    archive = make_tar(tmp_path / "s.tar.gz", GOOD)
    dest = tmp_path / "dest"

    extract_archive(archive, dest, task_names=TASKS)

    assert (dest / "TodoList/start.sh").read_bytes() == b"#!/bin/bash\necho hi\n"
    assert (dest / "Notes/manage.py").read_bytes() == b"print(2)\n"


def test_extraction_writes_nothing_outside_dest(tmp_path):
    outside = tmp_path / "area"
    outside.mkdir()
    archive = make_zip(outside / "s.zip", GOOD + [("./TodoList/./sub/x.txt", b"fine")])
    before = set(outside.rglob("*"))
    dest = outside / "dest"

    extract_archive(archive, dest, task_names=TASKS)

    after = set(outside.rglob("*"))
    assert {p for p in after - before if dest not in p.parents and p != dest} == set()


def test_extraction_refuses_an_existing_dest(tmp_path):
    archive = make_zip(tmp_path / "s.zip", GOOD)
    dest = tmp_path / "dest"
    dest.mkdir()
    (dest / "keep.txt").write_text("mine")

    with pytest.raises(FileExistsError):
        extract_archive(archive, dest)

    assert (dest / "keep.txt").read_text() == "mine"


@pytest.mark.parametrize("entries", [
    [("TodoList/app", b"a file"), ("TodoList/app/main.py", b"inside")],
    [("TodoList/app/main.py", b"inside"), ("TodoList/app", b"a file")],
], ids=["file-then-folder", "folder-then-file"])
def test_file_and_folder_with_the_same_path_are_refused_with_an_archive_error(tmp_path, entries):
    """Both cannot be written: the upload check should refuse it, and extraction must fail cleanly."""
    archive = make_zip(tmp_path / "s.zip", entries)
    dest = tmp_path / "dest"

    with pytest.raises(Exception) as err:
        extract_archive(archive, dest, task_names=TASKS)

    assert not dest.exists()  # nothing half-extracted is left
    assert isinstance(err.value, ArchiveError), f"{type(err.value).__name__}: {err.value}"
    with pytest.raises(ArchiveError):
        inspect_archive(archive, task_names=TASKS)


def test_zip_with_corrupt_member_data_is_refused_as_damaged(tmp_path):
    """The member list is intact (so the upload check passes) but a member's compressed bytes are garbage."""
    archive = make_zip(tmp_path / "s.zip", [("TodoList/start.sh", b"echo hello world\n" * 200),
                                            ("TodoList/app.py", b"print(1)\n")])
    data = bytearray(archive.read_bytes())
    start = data.index(b"TodoList/start.sh") + len("TodoList/start.sh") + 10
    data[start:start + 20] = bytes(b ^ 0xFF for b in data[start:start + 20])
    archive.write_bytes(bytes(data))
    dest = tmp_path / "dest"

    with pytest.raises(Exception) as err:
        extract_archive(archive, dest, task_names=TASKS)

    assert not dest.exists()
    assert isinstance(err.value, ArchiveError), f"{type(err.value).__name__}: {err.value}"
    assert "damaged" in str(err.value)
