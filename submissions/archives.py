"""Packing folders into zips: task folders (demo seeding, tests, endpoint submissions) or one repository."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

SKIP = {"__pycache__", ".venv", "venv", "target", ".pytest_cache"}


def _add_folder(zf: zipfile.ZipFile, folder: Path, prefix: str) -> None:
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if SKIP.intersection(rel.parts) or not path.is_file() or path.is_symlink():
            continue
        info = zipfile.ZipInfo(f"{prefix}{rel.as_posix()}")
        info.external_attr = (0o100755 if path.stat().st_mode & 0o100 else 0o100644) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        zf.writestr(info, path.read_bytes())


def zip_folders(folders: dict[str, Path]) -> bytes:
    """A zip holding `name/...` for each {name: folder}, executable bits kept, caches left out."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, folder in sorted(folders.items()):
            _add_folder(zf, folder, f"{name}/")
    return buffer.getvalue()


def zip_tree(folder: Path) -> bytes:
    """A zip of one repository: the folder's contents at the archive root (the agent/1 answer form)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        _add_folder(zf, folder, "")
    return buffer.getvalue()


def zip_submission_folder(root: Path) -> bytes:
    """A zip of every task folder directly under `root`."""
    return zip_folders({p.name: p for p in root.iterdir() if p.is_dir()})
