"""Checking and unpacking submission archives (core.engine.archive): real zip and tar files."""
from __future__ import annotations

import io
import os
import stat
import tarfile
import zipfile
import zlib
from pathlib import Path

import pytest

from core.engine.archive import (
    ArchiveError,
    ArchiveLimits,
    extract_archive,
    extract_repository,
    inspect_archive,
    inspect_repository,
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


# --- archives made by the real tools -------------------------------------------------------------------------
# `zip -r` and `tar czf` write a directory entry for every folder (the builders above never do), may hold the same
# member twice, and nothing stops a header from under-reporting its member's size: each must be accepted or refused
# as the module docstring says (links, devices, .., limits, the same file twice, damaged data).
def real_tree(root: Path, *, wrap: str = "") -> Path:
    """TodoList/{start.sh (0755), app.py, static/ (empty)} and Notes/{manage.py, pkg/__init__.py} under `root`."""
    base = root / wrap if wrap else root
    (base / "TodoList" / "static").mkdir(parents=True)
    (base / "TodoList" / "start.sh").write_text("#!/bin/bash\nexec python app.py\n")
    (base / "TodoList" / "start.sh").chmod(0o755)
    (base / "TodoList" / "app.py").write_text("print('todo')\n" * 50)
    (base / "Notes" / "pkg").mkdir(parents=True)
    (base / "Notes" / "manage.py").write_text("print('notes')\n")
    (base / "Notes" / "pkg" / "__init__.py").write_text("")
    return root


def run_tool(*args: str, cwd: Path) -> None:
    import subprocess

    subprocess.run(list(args), cwd=cwd, check=True, capture_output=True, env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"})


REAL_FILES = {"TodoList/start.sh", "TodoList/app.py", "Notes/manage.py", "Notes/pkg/__init__.py"}


@pytest.mark.parametrize("tool", ["zip", "tar"])
@pytest.mark.parametrize("wrap, targets", [("", ("TodoList", "Notes")), ("my-submission", ("my-submission",))],
                         ids=["task-folders", "wrapping-folder"])
def test_archives_made_by_zip_r_and_tar_czf_unpack_with_their_folders(tmp_path, tool, wrap, targets):
    src = real_tree(tmp_path / "src", wrap=wrap)
    archive = tmp_path / ("s.zip" if tool == "zip" else "s.tar.gz")
    if tool == "zip":
        run_tool("zip", "-r", "-q", str(archive), *targets, cwd=src)
        with zipfile.ZipFile(archive) as zf:
            folders = [i.filename for i in zf.infolist() if i.is_dir()]
    else:
        run_tool("tar", "czf", str(archive), *targets, cwd=src)
        with tarfile.open(archive) as tf:
            folders = [i.name for i in tf.getmembers() if i.isdir()]
    assert f"{wrap + '/' if wrap else ''}TodoList/static".rstrip("/") in {f.rstrip("/") for f in folders}

    manifest = inspect_archive(archive, task_names=TASKS)
    assert (manifest.prefix, manifest.folders) == (wrap, ("Notes", "TodoList"))
    dest = tmp_path / "dest"
    extract_archive(archive, dest, task_names=TASKS)
    assert files_under(dest) == REAL_FILES
    assert (dest / "TodoList" / "static").is_dir()  # the empty folder's entry became a folder, not a file
    assert stat.S_IMODE((dest / "TodoList/start.sh").stat().st_mode) == 0o755
    assert (dest / "TodoList/app.py").read_text() == "print('todo')\n" * 50


def test_tar_czf_of_the_current_folder_is_accepted(tmp_path):
    """`tar czf s.tar.gz .` names members ./TodoList/...; the "./" entry is the archive root."""
    src = real_tree(tmp_path / "src")
    archive = tmp_path / "s.tar.gz"
    run_tool("tar", "czf", str(archive), ".", cwd=src)
    dest = tmp_path / "dest"
    manifest = extract_archive(archive, dest, task_names=TASKS)
    assert manifest.folders == ("Notes", "TodoList") and files_under(dest) == REAL_FILES


def test_tar_holding_the_same_file_twice_is_refused(tmp_path):
    src = real_tree(tmp_path / "src")
    archive = tmp_path / "s.tar.gz"
    # Named twice, GNU tar stores the second copy as a hard link to the first: refused as a link, by name.
    run_tool("tar", "czf", str(archive), "TodoList", "Notes", "TodoList/app.py", cwd=src)
    with pytest.raises(ArchiveError, match=r"link or special file \('TodoList/app.py'\)"):
        inspect_archive(archive, task_names=TASKS)
    # With --hard-dereference both are full copies of the file: refused as the same file twice.
    run_tool("tar", "czf", str(archive), "--hard-dereference", "TodoList", "Notes", "TodoList/app.py", cwd=src)
    with tarfile.open(archive) as tf:
        assert [m.name for m in tf.getmembers() if m.isfile()].count("TodoList/app.py") == 2
    with pytest.raises(ArchiveError, match="'TodoList/app.py' twice"):
        inspect_archive(archive, task_names=TASKS)
    with pytest.raises(ArchiveError, match="twice"):
        extract_archive(archive, tmp_path / "dest", task_names=TASKS)
    assert not (tmp_path / "dest").exists()


def test_zip_holding_the_same_file_twice_is_refused(tmp_path):
    src = real_tree(tmp_path / "src")
    archive = tmp_path / "s.zip"
    run_tool("zip", "-r", "-q", str(archive), "TodoList", "Notes", cwd=src)
    with pytest.warns(UserWarning, match="Duplicate name"), zipfile.ZipFile(archive, "a") as zf:
        zf.writestr("TodoList/app.py", "print('the other copy')\n")
    with pytest.raises(ArchiveError, match="'TodoList/app.py' twice"):
        inspect_archive(archive, task_names=TASKS)


def _patch_zip_size(archive: Path, name: str, size: int) -> None:
    """Make the local header and the central directory both under-report `name`'s uncompressed size."""
    import struct

    data = bytearray(archive.read_bytes())
    encoded = name.encode()
    for signature, size_offset, name_offset in ((b"PK\x03\x04", 22, 30), (b"PK\x01\x02", 24, 46)):
        at = 0
        while (at := data.find(signature, at)) >= 0:
            if data[at + name_offset: at + name_offset + len(encoded)] == encoded:
                struct.pack_into("<L", data, at + size_offset, size)
            at += 4
    archive.write_bytes(bytes(data))


def test_zip_whose_headers_under_report_a_size_is_refused_at_extraction(tmp_path):
    src = real_tree(tmp_path / "src")
    (src / "TodoList" / "app.py").write_bytes(os.urandom(3000))
    archive = tmp_path / "s.zip"
    run_tool("zip", "-r", "-q", str(archive), "TodoList", "Notes", cwd=src)
    _patch_zip_size(archive, "TodoList/app.py", 10)
    assert inspect_archive(archive, task_names=TASKS).total_bytes < 3000  # the headers look fine

    dest = tmp_path / "dest"
    with pytest.raises(ArchiveError, match="damaged"):
        extract_archive(archive, dest, task_names=TASKS)  # only 10 bytes are read: their CRC is wrong
    assert not dest.exists()


def _patch_tar_size(archive: Path, name: str, size: int) -> None:
    """Rewrite the .tar.gz with `name`'s header under-reporting its size (checksum fixed, so the header is valid)."""
    import gzip

    data = bytearray(gzip.decompress(archive.read_bytes()))
    at = 0
    while at < len(data):
        header = data[at:at + 512]
        if header[:len(name)] == name.encode() and header[len(name)] == 0:
            data[at + 124:at + 136] = b"%011o\0" % size
            data[at + 148:at + 156] = b" " * 8
            data[at + 148:at + 156] = b"%06o\0 " % sum(data[at:at + 512])
            break
        member_size = int(header[124:136].strip(b"\0 ") or b"0", 8)
        at += 512 + (member_size + 511) // 512 * 512
    else:
        raise AssertionError(f"{name} not found")
    archive.write_bytes(gzip.compress(bytes(data)))


@pytest.mark.parametrize("content", [os.urandom(5000), b"\0" * 5000], ids=["data", "zeros"])
def test_tar_whose_header_under_reports_a_size_is_refused(tmp_path, content):
    """The bytes past the declared size are read as the next header: garbage, or zeros that would end the archive
    early and silently drop every later member. Either way the archive is refused, never half-read."""
    src = real_tree(tmp_path / "src")
    (src / "TodoList" / "app.py").write_bytes(content)
    archive = tmp_path / "s.tar.gz"
    run_tool("tar", "czf", str(archive), "TodoList", "Notes", cwd=src)
    inspect_archive(archive, task_names=TASKS)  # as made: fine
    _patch_tar_size(archive, "TodoList/app.py", 100)

    with pytest.raises(ArchiveError, match="damaged|more data than its headers say"):
        inspect_archive(archive, task_names=TASKS)
    with pytest.raises(ArchiveError, match="damaged|more data than its headers say"):
        extract_archive(archive, tmp_path / "dest", task_names=TASKS)
    assert not (tmp_path / "dest").exists()


# --- bombs: bounded work, measured in bytes decompressed ----------------------------------------------------
MIB = 1024 * 1024


def _deflate_zeros(prefix: bytes, mib: int, suffix: bytes) -> tuple[bytes, int, int]:
    """(raw deflate of prefix + mib MiB of zeros + suffix, its CRC-32, its length) in about a second for 1 GiB:
    after a full flush the compressor forgets everything, so one MiB's output stands for every MiB."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    zero = bytes(MIB)
    head = c.compress(prefix) + c.flush(zlib.Z_FULL_FLUSH)
    segment = c.compress(zero) + c.flush(zlib.Z_FULL_FLUSH)
    tail = c.compress(suffix) + c.flush()
    crc = zlib.crc32(prefix)
    for _ in range(mib):
        crc = zlib.crc32(zero, crc)
    crc = zlib.crc32(suffix, crc)
    return head + segment * mib + tail, crc, len(prefix) + mib * MIB + len(suffix)


def tar_gz_bomb(path: Path, *, mib: int, typeflag: bytes = tarfile.REGTYPE) -> Path:
    """A .tar.gz whose first member (a regular file, or a pax record) is `mib` MiB of zeros."""
    import struct

    info = tarfile.TarInfo("TodoList/zeros.bin" if typeflag == tarfile.REGTYPE else "././@PaxHeader")
    info.size, info.type = mib * MIB, typeflag
    header = info.tobuf(format=tarfile.USTAR_FORMAT)
    body, crc, length = _deflate_zeros(header, mib, bytes(1024))
    path.write_bytes(b"\x1f\x8b\x08\x00\0\0\0\0\x00\xff" + body + struct.pack("<LL", crc, length % 2**32))
    return path


def zip_bomb(path: Path, *, mib: int) -> Path:
    """A .zip with one member TodoList/zeros.bin of `mib` MiB of zeros (headers truthful)."""
    import struct

    name = b"TodoList/zeros.bin"
    body, crc, length = _deflate_zeros(b"", mib, b"")
    local = struct.pack("<4s2B4HL2L2H", b"PK\x03\x04", 20, 0, 0, 8, 0, 0x21, crc, len(body), length, len(name), 0)
    central = struct.pack("<4s4B4HL2L5H2L", b"PK\x01\x02", 20, 3, 20, 0, 0, 8, 0, 0x21, crc, len(body), length,
                          len(name), 0, 0, 0, 0, (stat.S_IFREG | 0o644) << 16, 0)
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 1, 1, len(central) + len(name), len(local) + len(name) +
                      len(body), 0)
    path.write_bytes(local + name + body + central + name + end)
    return path


@pytest.fixture
def decompressed(monkeypatch):
    """Counts the bytes every gzip stream decompresses and every zip member hands out while the test runs:
    {"gzip", "zip"}."""
    import gzip

    counts = {"gzip": 0, "zip": 0}
    # gzip's decompressing reader under GzipFile: seek() (how tarfile skips a member) decompresses through it too
    gzip_read, zip_read = gzip._GzipReader.read, zipfile.ZipExtFile.read

    def counting_gzip(self, size=-1):
        data = gzip_read(self, size)
        counts["gzip"] += len(data)
        return data

    def counting_zip(self, n=-1):
        data = zip_read(self, n)
        counts["zip"] += len(data)
        return data

    monkeypatch.setattr(gzip._GzipReader, "read", counting_gzip)
    monkeypatch.setattr(zipfile.ZipExtFile, "read", counting_zip)
    return counts


def test_the_bomb_builders_are_real_archives(tmp_path):
    """The crafted bombs decompress to what they claim (checked at a small size with the standard library)."""
    import gzip

    tar = tar_gz_bomb(tmp_path / "b.tar.gz", mib=3)
    assert len(gzip.decompress(tar.read_bytes())) == 512 + 3 * MIB + 1024
    with tarfile.open(tar) as tf:
        assert [(m.name, m.size) for m in tf.getmembers()] == [("TodoList/zeros.bin", 3 * MIB)]
    with zipfile.ZipFile(zip_bomb(tmp_path / "b.zip", mib=3)) as zf:
        assert zf.read("TodoList/zeros.bin") == bytes(3 * MIB)


def test_a_1_gib_tar_gz_bomb_is_refused_at_its_first_header(tmp_path, decompressed):
    """Issue 13, defect 3: a ~1 MB .tar.gz holding one 1 GiB member of zeros used to be decompressed to the end (3.5 s
    of web-worker CPU) before the limits were checked. Now the member's header is refused before its data is read."""
    bomb = tar_gz_bomb(tmp_path / "bomb.tar.gz", mib=1024)
    assert bomb.stat().st_size < 2 * MIB

    with pytest.raises(ArchiveError, match="over the limit of 524288000"):
        inspect_archive(bomb, task_names=TASKS)
    assert decompressed["gzip"] <= 64 * 1024, decompressed

    with pytest.raises(ArchiveError, match="over the limit"):
        extract_archive(bomb, tmp_path / "dest", task_names=TASKS)
    assert not (tmp_path / "dest").exists()
    assert decompressed["gzip"] <= 2 * 64 * 1024, decompressed


def test_a_1_gib_zip_bomb_is_refused_without_decompressing_anything(tmp_path, decompressed):
    bomb = zip_bomb(tmp_path / "bomb.zip", mib=1024)
    assert bomb.stat().st_size < 2 * MIB
    with pytest.raises(ArchiveError, match="over the limit of 524288000"):
        inspect_archive(bomb, task_names=TASKS)
    with pytest.raises(ArchiveError, match="compression ratio"):
        inspect_archive(bomb, task_names=TASKS, limits=ArchiveLimits(max_bytes=2 * 1024 ** 3))
    with pytest.raises(ArchiveError):
        extract_archive(bomb, tmp_path / "dest", task_names=TASKS)
    assert decompressed["zip"] == 0 and not (tmp_path / "dest").exists()


def test_members_within_limits_one_by_one_stop_the_pass_at_the_limit(tmp_path, decompressed):
    """40 members of 256 KiB under a 1 MiB limit: the pass stops at the fifth header, having decompressed at most the
    limit plus the per-member allowance and one read, not the 10 MiB the archive holds."""
    archive = make_tar(tmp_path / "s.tar.gz", [(f"TodoList/f{i:02d}.bin", os.urandom(256 * 1024)) for i in range(40)])
    limits = ArchiveLimits(max_bytes=MIB)
    with pytest.raises(ArchiveError, match="over the limit of 1048576"):
        inspect_archive(archive, limits=limits, task_names=TASKS)
    assert decompressed["gzip"] <= MIB + 6 * 8192 + 64 * 1024, decompressed


def test_a_pax_record_larger_than_any_header_is_refused_within_the_bound(tmp_path, decompressed):
    """A pax record is read whole by tarfile before its member is seen: 64 MiB of "header" is refused after about
    1 MiB (the stream's allowance), not read into memory."""
    bomb = tar_gz_bomb(tmp_path / "pax.tar.gz", mib=64, typeflag=tarfile.XHDTYPE)
    with pytest.raises(ArchiveError, match="more data than its headers say"):
        inspect_archive(bomb, task_names=TASKS)
    assert decompressed["gzip"] <= MIB + 2 * 8192 + 64 * 1024, decompressed


def test_the_write_budget_stops_a_member_that_outgrows_it(tmp_path):
    """White-box: extraction counts every byte written against max_bytes, whatever the headers said (the last line
    of defence if a member's data outgrows its checked header)."""
    from core.engine.archive import _copy_stream

    budget = [MIB + 10]
    # The whole refusal, as the submitter reads it (its text mutated).
    with pytest.raises(ArchiveError, match=r"^The archive unpacks to more bytes than its header says; it was refused\.$"):
        _copy_stream(io.BytesIO(bytes(3 * MIB)), tmp_path / "out.bin", budget)
    assert (tmp_path / "out.bin").stat().st_size <= MIB + 10
    budget = [3 * MIB]
    _copy_stream(io.BytesIO(bytes(3 * MIB)), tmp_path / "exact.bin", budget)
    assert (tmp_path / "exact.bin").stat().st_size == 3 * MIB and budget == [0]


@pytest.mark.parametrize("name, refused", [
    ("a" * 255, False),  # NAME_MAX exactly
    ("a" * 256, True),
    ("é" * 127, False),  # 254 bytes of UTF-8
    ("é" * 128, True),  # 128 characters but 256 bytes
])
def test_a_name_longer_than_the_file_system_takes_is_refused_at_inspection(tmp_path, name, refused):
    from core.engine.archive import ArchiveError, inspect_archive

    path = tmp_path / "long.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("TodoList/start.sh", "echo\n")
        zf.writestr(f"TodoList/{name}", "x")
    if refused:
        with pytest.raises(ArchiveError, match="at most 255 bytes"):
            inspect_archive(path, task_names=["TodoList"])
    else:
        assert inspect_archive(path, task_names=["TodoList"]).folders == ("TodoList",)


def test_a_lone_folder_named_like_a_task_in_another_case_is_not_unwrapped(tmp_path):
    from core.engine.archive import inspect_archive

    path = tmp_path / "case.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("todolist/start.sh", "echo\n")
        zf.writestr("todolist/src/app.py", "x")
    manifest = inspect_archive(path, task_names=["TodoList", "Notes"])
    assert (manifest.prefix, manifest.folders) == ("", ("todolist",))
    wrapped = tmp_path / "wrapped.zip"
    with zipfile.ZipFile(wrapped, "w") as zf:
        zf.writestr("run-1/TodoList/start.sh", "echo\n")
    assert inspect_archive(wrapped, task_names=["TodoList"]).prefix == "run-1"  # a real wrapper still is one


# --- added for the mutation run of archive.py (docs/mutation.md); each comment names the mutants it kills -------
def test_extraction_creates_every_missing_folder_in_any_entry_order(tmp_path):
    # dest's parents missing (`dest.mkdir(parents=True)` made False/None); a nested file without folder entries
    # (`target.parent.mkdir(parents=...)` mutated); a folder entry after a file inside it (`exist_ok` made False);
    # an empty nested folder (`target.mkdir(parents=...)` mutated); a file executable only by others stays 0644
    # (`mode & 0o100` made `& 65`).
    archive = make_zip(tmp_path / "s.zip", [
        ("TodoList/src/pkg/mod.py", b"x = 1\n"),
        ("TodoList/src/", b""),
        ("TodoList/empty/deeper/", b""),
        ("TodoList/start.sh", b"echo\n", stat.S_IFREG | 0o641),
    ])
    dest = tmp_path / "runs" / "7" / "dest"

    extract_archive(archive, dest, task_names=TASKS)

    assert files_under(dest) == {"TodoList/src/pkg/mod.py", "TodoList/start.sh"}
    assert (dest / "TodoList/empty/deeper").is_dir()
    assert stat.S_IMODE((dest / "TodoList/start.sh").stat().st_mode) == 0o644


def test_macos_metadata_is_never_written(tmp_path):
    # `not name or name.startswith("__MACOSX")` made `and`, or its prefix mutated: the junk would be unpacked.
    archive = make_zip(tmp_path / "s.zip", [("TodoList/app.py", b"x"), ("__MACOSX/TodoList/._app.py", b"junk")])
    dest = tmp_path / "dest"
    extract_archive(archive, dest, task_names=TASKS)
    assert files_under(dest) == {"TodoList/app.py"}


def test_a_lone_folder_beside_root_files_is_not_a_wrapper(tmp_path):
    # `root_files` dropped (`None`): a README beside the folder would be lost with an unwrapping.
    archive = make_zip(tmp_path / "s.zip", [("wrap/TodoList/app.py", b"x"), ("README.md", b"notes")])
    manifest = inspect_archive(archive, task_names=TASKS)
    assert (manifest.prefix, manifest.folders) == ("", ("wrap",))


@pytest.mark.parametrize("entries, message", [
    ([], "The archive is empty. It must hold one folder per task."),
    ([("start.sh", b"x")], "The archive holds files but no task folder. Put each task's repository in a folder named "
                           "exactly as the task (e.g. Notes/start.sh)."),  # the first task by name
    # A file that is also the first folder of another path, with no folder entry (`range(1, ...)` made 2).
    ([("TodoList/app", b"a file"), ("TodoList/app/x/main.py", b"inside"), ("Notes", b"a file"), ("Notes/y", b"z")],
     "The archive holds 'Notes' both as a file and as a folder; rename one of them and create the archive again."),
], ids=["empty", "no-task-folder", "file-and-folder"])
def test_refusals_say_exactly_what_is_wrong(tmp_path, entries, message):
    # Each refusal's text as the submitter reads it (the strings mutated, the clash's name dropped or unsorted).
    archive = make_zip(tmp_path / "s.zip", entries)
    with pytest.raises(ArchiveError) as err:
        inspect_archive(archive, task_names=TASKS)
    assert str(err.value) == message


def test_a_name_too_long_for_the_file_system_under_dest_is_refused_and_cleaned_up(tmp_path):
    # The OSError branch of extraction: its message (the strerror and the entry's name) and its clean-up
    # (`shutil.rmtree(dest)` given None or no path).
    segment = "n" * 200
    dest = tmp_path.joinpath(*["d" * 200] * 7, "dest")
    member = "TodoList/" + "/".join([segment] * 14) + "/f.txt"  # 2,828 bytes: accepted at inspection
    archive = make_zip(tmp_path / "s.zip", [(member, b"x")])
    assert len(str(dest / member).encode()) > 4096

    with pytest.raises(ArchiveError) as err:
        extract_archive(archive, dest, task_names=TASKS)

    assert str(err.value) == (f"The archive could not be unpacked: File name too long ({segment}). Check for entries "
                              "whose names clash (a file and a folder with the same name) and create the archive again.")
    assert not dest.exists()


def test_bytes_after_the_end_of_a_tar_are_refused_unless_zero(tmp_path):
    # `chunk.strip(b"\0")` made `strip(b"XX\0XX")`: trailing "X" bytes would pass as padding.
    archive = make_tar(tmp_path / "s.tar", GOOD)
    archive.write_bytes(archive.read_bytes() + b"X" * 600)
    with pytest.raises(ArchiveError, match="damaged"):
        inspect_archive(archive, task_names=TASKS)
    padded = make_tar(tmp_path / "p.tar", GOOD)
    padded.write_bytes(padded.read_bytes() + bytes(600))
    assert inspect_archive(padded, task_names=TASKS).folders == ("Notes", "TodoList")


def test_a_tar_stream_is_read_forward_only(tmp_path):
    """White-box: the bounded stream tarfile reads seeks forward (absolute or relative) and refuses to go back."""
    from core.engine.archive import _BoundedTarStream, _Tally

    archive = make_tar(tmp_path / "s.tar", GOOD)
    stream = _BoundedTarStream(archive, _Tally(ArchiveLimits(), archive.stat().st_size))
    try:
        assert stream.seekable() is True
        assert stream.seek(100) == 100 and stream.tell() == 100
        assert stream.seek(50, os.SEEK_CUR) == 150  # relative (`+ offset` made `-`, or taken as absolute)
        with pytest.raises(OSError, match="^a tar stream is read forward only$"):  # (`or` made `and`, the message)
            stream.seek(10)
        with pytest.raises(OSError, match="^a tar stream is read forward only$"):
            stream.seek(0, os.SEEK_END)
    finally:
        stream.close()


def test_tarfile_asking_for_an_earlier_member_is_refused(tmp_path):
    """Through tarfile itself: a member already passed cannot be read again (the stream never goes back)."""
    from core.engine.archive import _open_tar, _Tally

    archive = make_tar(tmp_path / "s.tar", GOOD)
    tf, stream = _open_tar(archive, _Tally(ArchiveLimits(), archive.stat().st_size))
    try:
        members = list(tf)
        with pytest.raises(OSError, match="read forward only"):
            tf.extractfile(members[0]).read()
    finally:
        stream.close()


# An agent endpoint's answer: one repository (inspect_repository / extract_repository).
@pytest.mark.parametrize("entries, prefix, folders, files", [
    ([("start.sh", b"a"), ("src/app.py", b"bb"), ("src/", b"")], "", ("src",), {"start.sh", "src/app.py"}),
    ([("repo/start.sh", b"a"), ("repo/src/app.py", b"bb")], "repo", ("repo",), {"start.sh", "src/app.py"}),
    ([("repo/", b""), ("repo/start.sh", b"a"), ("repo/src/app.py", b"bb")], "repo", ("repo",),
     {"start.sh", "src/app.py"}),
    ([("one/a.py", b"a"), ("two/b.py", b"bb")], "", ("one", "two"), {"one/a.py", "two/b.py"}),
    ([("repo/start.sh", b"a"), ("notes.txt", b"bb")], "", ("repo",), {"repo/start.sh", "notes.txt"}),
], ids=["at-the-root", "one-folder", "one-folder-with-entry", "two-folders", "folder-and-root-file"])
def test_a_repository_archive_is_unwrapped_only_when_one_folder_holds_everything(tmp_path, entries, prefix, folders,
                                                                                  files):
    # The prefix rule (one top folder and no root file), the folder list, counts and bytes, and the unpacked files.
    archive = make_zip(tmp_path / "r.zip", entries)
    manifest = inspect_repository(archive)
    assert (manifest.prefix, manifest.folders) == (prefix, folders)
    assert (manifest.members, manifest.total_bytes) == (len(entries), 3)
    dest = tmp_path / "dest"
    assert extract_repository(archive, dest) == manifest
    assert files_under(dest) == files


@pytest.mark.parametrize("entries", [[], [("repo/", b""), ("repo/src/", b"")]], ids=["nothing", "only-folders"])
def test_an_empty_repository_archive_is_refused(tmp_path, entries):
    archive = make_zip(tmp_path / "r.zip", entries)
    with pytest.raises(ArchiveError) as err:
        inspect_repository(archive)
    assert str(err.value) == "The archive is empty. It must hold the repository's files."
    with pytest.raises(ArchiveError):
        extract_repository(archive, tmp_path / "dest")
    assert not (tmp_path / "dest").exists()


def test_a_repository_archive_gets_the_same_checks(tmp_path):
    # Limits passed through (`limits=` dropped in inspect_repository / extract_repository).
    archive = make_zip(tmp_path / "r.zip", [(f"f{i}.txt", b"x") for i in range(6)])
    with pytest.raises(ArchiveError, match="more than 5 entries"):
        inspect_repository(archive, limits=ArchiveLimits(max_members=5))
    with pytest.raises(ArchiveError, match="more than 5 entries"):
        extract_repository(archive, tmp_path / "dest", limits=ArchiveLimits(max_members=5))


def test_layout_warnings_name_each_unknown_folder_with_a_case_hint(tmp_path):
    # Each note's text, the case hint's lookup (lower-case on both sides) and the order of the folders.
    archive = make_zip(tmp_path / "s.zip", [("todolist/app.py", b"x"), ("Extra/y", b"y"), ("Notes/z", b"z")])
    manifest = inspect_archive(archive, task_names=TASKS)
    assert manifest.layout_warnings(TASKS) == [
        "folder 'Extra' matches no task of the split and is ignored",
        "folder 'todolist' is not task 'TodoList': task names are case-sensitive, so 'TodoList' scores 0 as missing",
    ]
    assert manifest.layout_warnings(["TodoList", "Notes", "Extra", "todolist"]) == []


def _tar_with_folder(path: Path, sizes: list[int]) -> Path:
    folder = tarfile.TarInfo("TodoList")
    folder.type = tarfile.DIRTYPE
    return make_tar(path, [folder] + [(f"TodoList/f{i}.bin", os.urandom(n)) for i, n in enumerate(sizes)])


NOT_AN_ARCHIVE = ("The file is not a .zip or .tar.gz archive. Pack one folder per task, e.g. `zip -r submission.zip "
                  "TaskA TaskB` or `tar czf submission.tar.gz TaskA TaskB`.")


@pytest.mark.parametrize("content", [b"", bytes(100), b"X" * 512, b"\x1f\x8bnot gzip at all"],
                         ids=["empty-file", "short-zeros", "a-block-of-X", "bad-gzip"])
def test_a_file_that_is_no_archive_gets_the_packing_hint(tmp_path, content):
    # `len(block) == BLOCKSIZE and` made `or` (a short file of zeros taken for a tar), `strip(b"\0")` mutated (a block
    # of "X" taken for an empty tar), the message dropped for a stream that fails to decompress.
    path = tmp_path / "s.tar.gz"
    path.write_bytes(content)
    with pytest.raises(ArchiveError) as err:
        inspect_archive(path, task_names=TASKS)
    assert str(err.value) == NOT_AN_ARCHIVE


def test_the_limits_are_inclusive_and_their_refusals_exact(tmp_path):
    # Members: exactly max_members accepted (`>` made `>=`, the count starting at 1 or stepping by 2).
    at_limit = make_tar(tmp_path / "m5.tar", [(f"TodoList/f{i}", b"x") for i in range(5)])
    assert inspect_archive(at_limit, limits=ArchiveLimits(max_members=5), task_names=TASKS).members == 5
    over = make_tar(tmp_path / "m6.tar", [(f"TodoList/f{i}", b"x") for i in range(6)])
    with pytest.raises(ArchiveError) as err:
        inspect_archive(over, limits=ArchiveLimits(max_members=5), task_names=TASKS)
    assert str(err.value) == ("The archive holds more than 5 entries; remove build outputs, virtual environments and "
                              "dependencies (node_modules, .venv, target).")
    # Bytes: a folder entry counts 0 and exactly max_bytes is accepted (`>=`, the byte count starting at 1,
    # `max(size, 1)`, a tar folder counted as 1 byte).
    exact = _tar_with_folder(tmp_path / "b.tar", [1200, 800])
    assert inspect_archive(exact, limits=ArchiveLimits(max_bytes=2000), task_names=TASKS).total_bytes == 2000
    with pytest.raises(ArchiveError) as err:
        inspect_archive(_tar_with_folder(tmp_path / "b1.tar", [1200, 801]), limits=ArchiveLimits(max_bytes=2000),
                        task_names=TASKS)
    assert str(err.value) == ("The archive unpacks to at least 2001 bytes, over the limit of 2000; remove build "
                              "outputs and dependencies.")
    # A folder entry counts 0 even when its header declares bytes, which are never unpacked (`0 if member.is_dir`
    # made 1 or dropped, a tar folder's declared size counted).
    zipped = make_zip(tmp_path / "b.zip", [("TodoList/", b"abc"), ("TodoList/a", os.urandom(2000))])
    assert inspect_archive(zipped, limits=ArchiveLimits(max_bytes=2000), task_names=TASKS).total_bytes == 2000
    folder = tarfile.TarInfo("TodoList")
    folder.type, folder.size = tarfile.DIRTYPE, 3
    tarred = make_tar(tmp_path / "d.tar", [folder, ("TodoList/a", os.urandom(2000))])
    assert inspect_archive(tarred, limits=ArchiveLimits(max_bytes=2000), task_names=TASKS).total_bytes == 2000


@pytest.mark.parametrize("size, refused", [(2048, False), (2049, True)])
def test_the_compression_ratio_is_measured_against_at_least_1024_bytes(tmp_path, size, refused):
    # A tiny archive counts as 1024 bytes: 2048 bytes at ratio 2 pass, 2049 do not (`>` made `>=`, 1024 made 1025).
    archive = make_zip(tmp_path / "s.zip", [("TodoList/zeros", bytes(size))])
    assert archive.stat().st_size < 1024
    limits = ArchiveLimits(max_ratio=2)
    if refused:
        with pytest.raises(ArchiveError) as err:
            inspect_archive(archive, limits=limits, task_names=TASKS)
        assert str(err.value) == ("The archive's compression ratio is over 2:1, which looks like an archive bomb; it "
                                  "was refused.")
    else:
        assert inspect_archive(archive, limits=limits, task_names=TASKS).total_bytes == size


def test_name_and_path_length_refusals_show_the_name_shortened(tmp_path):
    # The shortened name (`part[:40]`, `part[-12:]` and the ellipsis mutated) and both messages; a path of exactly
    # MEMBER_PATH_MAX_BYTES (3072) accepted (`>` made `>=`).
    name = "x" * 100 + "y" * 156
    archive = make_zip(tmp_path / "n.zip", [(f"TodoList/{name}", b"x")])
    with pytest.raises(ArchiveError) as err:
        inspect_archive(archive, task_names=TASKS)
    assert str(err.value) == (f"The archive holds a file or folder name of 256 characters ('{'x' * 40}…{'y' * 12}'); "
                              "names may be at most 255 bytes (the file system's limit), so it cannot be unpacked. "
                              "Shorten it and create the archive again.")

    def path_of(size: int) -> str:
        parts = ["TodoList"]
        while len("/".join(parts)) + 1 + 200 + 1 + 100 <= size:
            parts.append("p" * 200)
        return "/".join(parts + ["q" * (size - len("/".join(parts)) - 1)])

    exact = make_zip(tmp_path / "exact.zip", [(path_of(3072), b"x")])
    assert inspect_archive(exact, task_names=TASKS).folders == ("TodoList",)
    long_path = path_of(3073)
    with pytest.raises(ArchiveError) as err:
        inspect_archive(make_zip(tmp_path / "long.zip", [(long_path, b"x")]), task_names=TASKS)
    assert str(err.value) == (f"The archive holds a path of 3073 bytes ({long_path[:60] + '…' + long_path[-40:]!r}); "
                              "paths may be at most 3072 bytes (a whole path on the file system at most 4096, and the "
                              "evaluator's folders take the rest) and each file or folder name at most 255 bytes, so "
                              "it cannot be unpacked. Move it up a few folders or shorten the names, and create the "
                              "archive again.")


@pytest.mark.parametrize("builder", ["zip", "tar"])
def test_a_link_is_refused_by_name(tmp_path, builder):
    # The refusal's text for both kinds of archive (its strings mutated).
    if builder == "zip":
        archive = make_zip(tmp_path / "s.zip", GOOD + [("TodoList/link", b"/etc/passwd", stat.S_IFLNK | 0o777)])
    else:
        archive = make_tar(tmp_path / "s.tar", GOOD + [tar_special("TodoList/link", tarfile.SYMTYPE, "/etc/passwd")])
    with pytest.raises(ArchiveError) as err:
        inspect_archive(archive, task_names=TASKS)
    assert str(err.value) == ("The archive holds a link or special file ('TodoList/link'); only regular files and "
                              "folders are accepted.")


def test_a_drive_letter_alone_is_an_absolute_path(tmp_path):
    # `len(name) > 1` made `> 2`: a member named "C:" would pass as a root file.
    archive = make_zip(tmp_path / "s.zip", GOOD + [("C:", b"x")])
    with pytest.raises(ArchiveError) as err:
        inspect_archive(archive, task_names=TASKS)
    assert str(err.value) == "The archive holds an absolute path ('C:'); use paths relative to the archive root."


def test_a_zip_entry_with_permission_bits_only_is_a_regular_file(tmp_path):
    # Some zip writers store only the permission bits: the type mask 0o170000 made 0o170001 would refuse this one.
    archive = make_zip(tmp_path / "s.zip", [("TodoList/start.sh", b"echo\n", 0o755), ("TodoList/app.py", b"x")])
    dest = tmp_path / "dest"
    extract_archive(archive, dest, task_names=TASKS)
    assert stat.S_IMODE((dest / "TodoList/start.sh").stat().st_mode) == 0o755


def test_a_tar_with_trailing_data_or_a_header_after_an_under_reported_size_says_why(tmp_path):
    # tarfile's own TarInfo instead of _StrictTarInfo, or the strict header's message dropped: an under-reported
    # size would read as "data after the end-of-archive marker" or say nothing; that message's own text.
    trailing = make_tar(tmp_path / "t.tar", GOOD)
    trailing.write_bytes(trailing.read_bytes() + b"X" * 600)
    with pytest.raises(ArchiveError) as err:
        inspect_archive(trailing, task_names=TASKS)
    assert str(err.value) == ("The archive is damaged and cannot be read (data after the end-of-archive marker). "
                              "Create it again.")
    src = real_tree(tmp_path / "src")
    (src / "TodoList" / "app.py").write_bytes(os.urandom(5000))
    archive = tmp_path / "s.tar.gz"
    run_tool("tar", "czf", str(archive), "TodoList", "Notes", cwd=src)
    _patch_tar_size(archive, "TodoList/app.py", 10)
    with pytest.raises(ArchiveError, match=r"^The archive is damaged and cannot be read \(bad header at byte \d+: "):
        inspect_archive(archive, task_names=TASKS)


def test_the_tar_stream_stops_one_byte_past_its_bound(tmp_path):
    """White-box: the bound is the declared bytes plus 8 KiB per member (one more for the next header) plus 1 MiB;
    reading up to it is fine, the read that crosses it takes exactly one byte more and is refused. Kills the
    bound's and the clamp's off-by-one mutants (`members + 1` made - 1 or + 2, `>` made `>=`, `+ 1` made + 2 or the
    clamp's `-` made `+`, the count starting at 1)."""
    from core.engine.archive import _BoundedTarStream, _Tally

    bound = 8 * 1024 + 1024 * 1024  # no member counted yet
    path = tmp_path / "plain.tar"
    path.write_bytes(bytes(bound + 100))
    stream = _BoundedTarStream(path, _Tally(ArchiveLimits(), path.stat().st_size))
    try:
        assert stream.bound() == bound
        assert len(stream.read(bound)) == bound and stream.tell() == bound
        with pytest.raises(ArchiveError) as err:
            stream.read(100)
        assert stream.tell() == bound + 1
        assert str(err.value) == ("The archive holds more data than its headers say (or a header record too large to be "
                                  "real); it was refused.")
    finally:
        stream.close()


def test_the_tar_stream_reads_a_chunk_at_most_and_seeks_to_its_end(tmp_path):
    """White-box: read() and read(-1) read one 64 KiB chunk, never the rest of the stream at once; read(0) reads
    nothing; a seek past the end stops there and says where (`size < 0` made `<= 0` or `< 1`, `or` made `and`, the
    chunk made None, `break` made `return`)."""
    from core.engine.archive import _BoundedTarStream, _Tally

    path = tmp_path / "plain.tar"
    path.write_bytes(bytes(200 * 1024))
    stream = _BoundedTarStream(path, _Tally(ArchiveLimits(), path.stat().st_size))
    try:
        assert stream.read(0) == b"" and stream.tell() == 0
        assert len(stream.read()) == 64 * 1024
        assert len(stream.read(-1)) == 64 * 1024
        assert len(stream.read(None)) == 64 * 1024
        assert stream.seek(10**6) == 200 * 1024
    finally:
        stream.close()
