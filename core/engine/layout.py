"""Finding things in a submitted repository: the start script and the requirements file.

Rules from docs/scoring.md "The run of one task", install and start phases.
"""
from __future__ import annotations

from pathlib import Path

from core.grading.untrusted_files import walk_untrusted

START_SCRIPT = "start.sh"
MAX_DEPTH = 3
SKIP_DIRS = {".git", "node_modules", ".venv", "venv", "__pycache__", "target"}


def inside(repo: Path, path: Path) -> bool:
    """True when `path` is a regular file that is not a link and resolves inside `repo` (no symlinked
    parents), so the platform never reads a host file through a submission's link."""
    try:
        return path.is_file() and not path.is_symlink() and path.resolve().is_relative_to(repo.resolve())
    except OSError:
        return False


def find_start_script(repo: Path) -> Path | None:
    """start.sh at the root, then scripts/, then bin/, then the shallowest within depth 3 (ties: path order)."""
    for rel in (START_SCRIPT, f"scripts/{START_SCRIPT}", f"bin/{START_SCRIPT}"):
        candidate = repo / rel
        if inside(repo, candidate):
            return candidate
    found: list[tuple[int, str, Path]] = []
    # Folders below depth MAX_DEPTH are never entered: a tree the install made 1,200 levels deep is no concern
    # here (pathlib's rglob recursed into it and raised RecursionError, issue 15).
    for folder, rel_folder, dirs, files in walk_untrusted(repo, max_depth=MAX_DEPTH):
        depth = 0 if rel_folder == "." else rel_folder.count("/") + 1
        dirs[:] = [] if depth >= MAX_DEPTH else [d for d in dirs if d not in SKIP_DIRS]
        if START_SCRIPT in files:
            path = Path(folder) / START_SCRIPT
            rel = path.relative_to(repo)
            if inside(repo, path):
                found.append((len(rel.parts), rel.as_posix(), path))
    return min(found)[2] if found else None


def find_requirements(repo: Path, start_script: Path | None) -> Path | None:
    """requirements.txt at the repo root first, else in the folder of the start script, else None.

    A requirements.txt that is a link (or lies behind one) is still returned, so the sandboxed install
    meets it and fails; callers on the platform side must check `inside(repo, path)` before reading it.
    """
    for folder in (repo, start_script.parent if start_script else None):
        candidate = folder / "requirements.txt" if folder is not None else None
        if candidate is not None and (candidate.is_file() or candidate.is_symlink()):
            return candidate
    return None
