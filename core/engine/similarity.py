"""How much of one task's repository is in another's: the near-copy check of an upload against the platform's
reference solutions (the oracle, public in this project's repository) and against other teams' submissions
(docs/scoring.md "What an upload is checked for"). Django-free.

A repository's *lines* are its text files' lines with comments and all whitespace removed, lines shorter than
MIN_LINE_CHARS left out (braces, `else:`, `return`), each hashed to a 63-bit integer (`line_hash`). Lines, not token windows: a
copy that inserts a line of its own between every two lines of the original, reorders its files or functions,
re-indents them or adds files still holds every line of the original, so the share of the original's lines found in
the copy (`containment`) stays near 1, while two independent solutions of one task share few of their lines. What a
line-level comparison does not see: renaming identifiers throughout, or reformatting every statement over other
line breaks; a copy that changes that much is an edit of its own. Only a *sketch* of a repository's lines is kept for
later comparisons: the SKETCH_SIZE smallest hashes of its source files' lines (a bottom-k sketch, which estimates the share of the sketched
repository's lines in another's: Broder 1997, "On the resemblance and containment of documents").
"""
from __future__ import annotations

import hashlib
import heapq
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
#: Bytes of one line that are compared (a longer line's rest is not).
MAX_LINE_BYTES = 4096
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

_BLOCK_COMMENT = re.compile(r"/\*.*?\*/")
_LINE_COMMENT = re.compile(r"//.*$|#.*$")
_SPACE = re.compile(r"\s+")


def is_source(path: str) -> bool:
    """True when the file at `path` (a relative path with "/" separators) is compared: a SOURCE_SUFFIXES file
    outside SKIPPED_FOLDERS."""
    parts = path.split("/")
    return path.lower().endswith(SOURCE_SUFFIXES) and not any(p in SKIPPED_FOLDERS for p in parts[:-1])


def line_hash(line: str) -> int | None:
    """The hash (a 63-bit integer) of one line, comments (`/* */` within the line, `//` or `#` to its end) and
    whitespace removed; None when under MIN_LINE_CHARS characters are left. Comments are removed line by line: a
    `/*` in one line and a `*/` in another delimit nothing (a copy that hid both in line comments at a file's top
    and bottom had every line between them taken for a comment, break-it pass 13 of issue 13). A `#` or `//` inside
    a string cuts its line short the same way in both repositories compared, so it does not matter."""
    if "/" in line or "#" in line:  # the regular expressions only where a comment can be (the common case is fast)
        line = _LINE_COMMENT.sub("", _BLOCK_COMMENT.sub("", line))
    line = "".join(line.split())
    if len(line) < MIN_LINE_CHARS:
        return None
    return int.from_bytes(hashlib.blake2b(line.encode(), digest_size=8).digest(), "big") >> 1


def is_text(head: bytes) -> bool:
    """True when a file whose first bytes are `head` is compared: no NUL byte (binaries are not)."""
    return b"\0" not in head


def containment(sketched: list[int], lines: set[int]) -> float | None:
    """The estimated share of the sketched repository's lines that `lines` (another repository's line hashes, all of
    them) holds, 0 to 1; None when the sketch is too small to tell (fewer than MIN_SKETCHED_LINES)."""
    if len(sketched) < MIN_SKETCHED_LINES:
        return None
    return sum(1 for h in sketched if h in lines) / len(sketched)


def near_copies(sketches: Mapping[str, list[int]], lines: Mapping[str, set[int]]) -> dict[str, float]:
    """{task: containment} for every task of `lines` (a submission's line hashes per task: all of them, or those of
    the sketches it is compared with, `LineCollector.found`) that holds at least NEAR_COPY of the same task's
    sketched repository in `sketches` (another repository per task)."""
    found = {}
    for task, own in lines.items():
        share = containment(sketches.get(task, []), own)
        if share is not None and share >= NEAR_COPY:
            found[task] = share
    return found


class _Group:
    """One task folder's lines as an archive is read: the hashes among those wanted, and the sketch's candidates."""

    def __init__(self) -> None:
        self.found: set[int] = set()
        self.smallest: list[int] = []  # a max-heap of the SKETCH_SIZE smallest source-file hashes, negated
        self.seen: set[int] = set()  # the hashes in `smallest`

    def add(self, h: int, wanted: set[int], source: bool) -> None:
        if h in wanted:
            self.found.add(h)
        if source and h not in self.seen:
            if len(self.smallest) < SKETCH_SIZE:
                heapq.heappush(self.smallest, -h)
                self.seen.add(h)
            elif h < -self.smallest[0]:
                self.seen.discard(-heapq.heapreplace(self.smallest, -h))
                self.seen.add(h)


class _Member:
    """The lines of one archive member as its data streams through (`LineCollector.member`)."""

    def __init__(self, groups: list[_Group], wanted: set[int], source: bool) -> None:
        self.groups, self.wanted, self.source = groups, wanted, source
        self.rest = b""
        self.text: bool | None = None

    def write(self, chunk: bytes) -> None:
        if self.text is None:
            self.text = is_text(chunk[:8192])
        if not self.text:
            return
        lines = (self.rest + chunk).split(b"\n")
        self.rest = lines.pop()[:MAX_LINE_BYTES]
        self._lines(lines)

    def close(self) -> None:
        if self.text and self.rest:
            self._lines([self.rest])

    def _lines(self, lines: list[bytes]) -> None:
        text = b"\n".join(line[:MAX_LINE_BYTES] for line in lines).decode("utf-8", "replace")
        for line in text.split("\n"):
            h = line_hash(line)
            if h is not None:
                for group in self.groups:
                    group.add(h, self.wanted, self.source)


class LineCollector:
    """What the near-copy check needs of an archive, gathered while it is read once (core.engine.archive.
    inspect_archive(sources=...) calls `member(name)` for each file and writes its data through), in bounded
    memory whatever the archive holds: per task folder, the line hashes among `wanted` ({task: the hashes of the
    sketches it is compared with}: the only ones a containment needs) from every text file, and the sketch of its
    source files (`is_source`). Every byte of every text file counts: no file, folder or padding is skipped. The
    folders are grouped as tasks both at the archive's root and under a single wrapping folder (known only once
    every member was read): `found(prefix)` and `sketches(prefix)` pick the grouping of the prefix inspection
    settled on."""

    def __init__(self, *, task_names: Iterable[str], wanted: Mapping[str, set[int]] | None = None) -> None:
        self.tasks = frozenset(task_names)
        self.wanted = {task: set(wanted.get(task, ())) if wanted else set() for task in self.tasks}
        self.root: dict[str, _Group] = {}
        self.wrapped: dict[str, _Group] = {}  # under the one top folder seen, while only one was
        self.tops: set[str] = set()

    def member(self, name: str) -> _Member | None:
        """A writer for the data of the archive member `name` (a file), or None when it lies in no task folder."""
        parts = name.split("/")
        self.tops.add(parts[0])
        if len(self.tops) > 1:
            self.wrapped.clear()
        groups, task, rel = [], None, ""
        if len(parts) > 1 and parts[0] in self.tasks:
            task, rel = parts[0], "/".join(parts[1:])
            groups.append(self.root.setdefault(task, _Group()))
        if len(self.tops) == 1 and len(parts) > 2 and parts[1] in self.tasks:
            task, rel = parts[1], "/".join(parts[2:])
            groups.append(self.wrapped.setdefault(task, _Group()))
        if not groups:
            return None
        return _Member(groups, self.wanted[task], is_source(rel))

    def _groups(self, prefix: str) -> dict[str, _Group]:
        return self.wrapped if prefix else self.root

    def found(self, prefix: str) -> dict[str, set[int]]:
        """{task: its wanted line hashes found in its folder} under the wrapping folder `prefix` ('' for none)."""
        return {task: group.found for task, group in self._groups(prefix).items()}

    def sketches(self, prefix: str) -> dict[str, list[int]]:
        """{task: the sketch of its folder's source files} under `prefix`, for the tasks with any line."""
        return {task: sorted(-h for h in group.smallest) for task, group in self._groups(prefix).items()
                if group.smallest}


def collect_folders(collector: LineCollector, folders: Mapping[str, Path]) -> None:
    """Stream the files of each task folder ({task: folder}, the platform's copy of a repository, e.g. an agent
    endpoint's answer unpacked) through `collector`, as `task/<path>` members (symbolic links are not followed)."""
    for task, folder in sorted(folders.items()):
        for path in sorted(folder.rglob("*")):
            if not path.is_file() or path.is_symlink():
                continue
            sink = collector.member(f"{task}/{path.relative_to(folder).as_posix()}")
            if sink is None:
                continue
            with open(path, "rb") as handle:
                while chunk := handle.read(1024 * 1024):
                    sink.write(chunk)
            sink.close()


def folder_sketches(folders: Mapping[str, Path]) -> dict[str, list[int]]:
    """{task: the sketch of its folder's source files} for each {task: folder} (the platform's own copies, e.g. the
    tasks' reference solutions), taken as an upload's are (`LineCollector.sketches`)."""
    collector = LineCollector(task_names=list(folders))
    collect_folders(collector, folders)
    return collector.sketches("")
