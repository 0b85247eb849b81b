"""How much of one task's repository is in another's: the near-copy check of an upload against the platform's
reference solutions (the oracle, public in this project's repository) and against other teams' submissions
(docs/scoring.md "What an upload is checked for"). Django-free.

A repository's *lines* are its source files' lines with comments and all whitespace removed, lines shorter than
MIN_LINE_CHARS left out (braces, `else:`, `return`), each hashed to a 63-bit integer. Lines, not token windows: a
copy that inserts a line of its own between every two lines of the original, reorders its files or functions,
re-indents them or adds files still holds every line of the original, so the share of the original's lines found in
the copy (`containment`) stays near 1, while two independent solutions of one task share few of their lines. What a
line-level comparison does not see: renaming identifiers throughout, or reformatting every statement over other
line breaks; a copy that changes that much is an edit of its own. Only a *sketch* of a repository's lines is kept for
later comparisons: its SKETCH_SIZE smallest hashes (a bottom-k sketch, which estimates the share of the sketched
repository's lines in another's: Broder 1997, "On the resemblance and containment of documents").
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

#: File name suffixes read as source (code, templates, configuration); other files (binaries, data, lock files)
#: are not compared.
SOURCE_SUFFIXES = (".py", ".java", ".kt", ".js", ".ts", ".go", ".rb", ".php", ".cs", ".html", ".jinja", ".j2",
                   ".sql", ".sh", ".yml", ".yaml", ".toml", ".cfg", ".ini", ".properties", ".xml", ".gradle")
#: Folders whose files are never compared: dependencies and build outputs, not the system's own code.
SKIPPED_FOLDERS = frozenset({".venv", "venv", "node_modules", "target", "build", "__pycache__", ".git", ".idea",
                             "dist", ".mvn", ".gradle"})
#: Bytes of one file that are read (a longer file's rest is not compared).
MAX_FILE_BYTES = 256 * 1024
#: Characters a line must keep, once comments and whitespace are gone, to be compared.
MIN_LINE_CHARS = 12
#: Hashes a sketch keeps (the smallest ones).
SKETCH_SIZE = 256
#: The fewest distinct lines a repository needs for its sketch to be compared: a task whose reference is a handful
#: of lines cannot tell a copy from an independent solution.
MIN_SKETCHED_LINES = 30
#: The share of a sketched repository's lines found in another repository from which the other is a near-copy of it:
#: a copy with lines or files added holds all of them (1.0); the demo's agent-alpha TodoList, written from the
#: demo's reference and then broken on purpose, holds 0.85 of it; independent solutions of one task hold 0.05 to
#: 0.46 of each other (the demo's reference and agent outputs, benchmarks/demo-submissions).
NEAR_COPY = 0.9

_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_LINE_COMMENT = re.compile(r"(?<![:\"'])//.*$|#.*$", re.M)
_SPACE = re.compile(r"\s+")


def is_source(path: str) -> bool:
    """True when the file at `path` (a relative path with "/" separators) is compared: a SOURCE_SUFFIXES file
    outside SKIPPED_FOLDERS."""
    parts = path.split("/")
    return path.lower().endswith(SOURCE_SUFFIXES) and not any(p in SKIPPED_FOLDERS for p in parts[:-1])


def line_hashes(text: str) -> set[int]:
    """The hashes (63-bit integers) of `text`'s lines, comments (`/* */`, `//`, `#` to the end of the line) and
    whitespace removed, lines under MIN_LINE_CHARS characters left out. A `#` or `//` inside a string cuts its line
    short the same way in both repositories compared, so it does not matter."""
    text = _LINE_COMMENT.sub("", _BLOCK_COMMENT.sub("", text))
    found = set()
    for line in text.splitlines():
        line = _SPACE.sub("", line)
        if len(line) >= MIN_LINE_CHARS:
            found.add(int.from_bytes(hashlib.blake2b(line.encode(), digest_size=8).digest(), "big") >> 1)
    return found


def repository_lines(files: Iterable[tuple[str, bytes]]) -> set[int]:
    """The line hashes (`line_hashes`) of a repository given as (relative path, contents) pairs; only source files
    (`is_source`), each read up to MAX_FILE_BYTES and decoded as UTF-8 (undecodable bytes replaced)."""
    found: set[int] = set()
    for path, data in files:
        if is_source(path):
            found |= line_hashes(data[:MAX_FILE_BYTES].decode("utf-8", "replace"))
    return found


def sketch(lines: set[int]) -> list[int]:
    """The bottom-k sketch of a repository's line hashes: its SKETCH_SIZE smallest, ascending."""
    return sorted(lines)[:SKETCH_SIZE]


def containment(sketched: list[int], lines: set[int]) -> float | None:
    """The estimated share of the sketched repository's lines that `lines` (another repository's line hashes, all of
    them) holds, 0 to 1; None when the sketch is too small to tell (fewer than MIN_SKETCHED_LINES)."""
    if len(sketched) < MIN_SKETCHED_LINES:
        return None
    return sum(1 for h in sketched if h in lines) / len(sketched)


def near_copies(sketches: Mapping[str, list[int]], lines: Mapping[str, set[int]]) -> dict[str, float]:
    """{task: containment} for every task of `lines` (a submission's line hashes per task) that holds at least
    NEAR_COPY of the same task's sketched repository in `sketches` (another repository per task)."""
    found = {}
    for task, own in lines.items():
        share = containment(sketches.get(task, []), own)
        if share is not None and share >= NEAR_COPY:
            found[task] = share
    return found


def task_lines(sources: Mapping[str, bytes], prefix: str, tasks: Iterable[str]) -> dict[str, set[int]]:
    """{task: the line hashes of its folder} for each of `tasks`, from an archive's source files `sources` ({member
    name: contents}, core.engine.archive.inspect_archive(sources=...)) under the wrapping folder `prefix` ('' for
    none)."""
    strip = f"{prefix}/" if prefix else ""
    per_task: dict[str, list[tuple[str, bytes]]] = {task: [] for task in tasks}
    for name, data in sources.items():
        if not name.startswith(strip):
            continue
        task, _, rest = name[len(strip):].partition("/")
        if task in per_task and rest:
            per_task[task].append((rest, data))
    return {task: repository_lines(files) for task, files in per_task.items()}


def folder_lines(folder: Path) -> set[int]:
    """The line hashes of the repository in `folder` (the platform's own files, e.g. a task's reference solution;
    symbolic links are not followed)."""
    files = []
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_file() and not path.is_symlink() and is_source(rel):
            with open(path, "rb") as handle:
                files.append((rel, handle.read(MAX_FILE_BYTES)))
    return repository_lines(files)
