"""Small lexical helpers for scanning source text without parsing it (private to `grading`).

Used by `static_routes` (route declarations) and `testcount` (JUnit annotations). Regex-level only: good enough
for declarations that are written literally, never executes or imports anything.
"""
from __future__ import annotations

import bisect
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

_STRING = re.compile(r'"""(?:.|\n)*?"""|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')
_TEMPLATE = re.compile(r"`[^`]*`")
_ANNOTATION = re.compile(r"@([A-Za-z_][\w.]*)")
_DECL_AFTER = re.compile(
    r"\s*(?:(?:public|protected|private|internal|abstract|final|static|open|sealed|data|export|default|declare)\s+)*"
    r"(class|interface|record|enum|object)\b"
)


def strip_c_comments(text: str) -> str:
    """`text` with `//` and `/* */` comments blanked (newlines kept), string and char literals left intact.

    Handles `"..."`, `'...'`, and Java text blocks `\"\"\"...\"\"\"`. Offsets of what remains are unchanged.
    """
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append(text[i:j])
            i = j
        elif c in "\"'`":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(text[i:j])
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def strip_hash_comments(text: str) -> str:
    """`text` with whole-line `#` comments blanked (Python); other lines untouched."""
    return re.sub(r"(?m)^[ \t]*#[^\n]*", "", text)


class BudgetExceeded(Exception):
    """The scan's `Budget` ran out: the caller stops scanning and reports that it stopped (message: why)."""


class Budget:
    """A bound on the host CPU one scan of untrusted source may cost: `chars` characters of work (each file's text
    once, each argument list analysed, each local bracket scan) and `seconds` of wall-clock time from creation.
    `charge(n)` raises BudgetExceeded once either is spent; `spent` is the characters charged so far."""

    def __init__(self, chars: int, seconds: float) -> None:
        self.chars, self.seconds = chars, seconds
        self.deadline = time.monotonic() + seconds
        self.spent = 0

    def charge(self, n: int) -> None:
        """Count `n` characters of work; raises BudgetExceeded when the characters or the time are spent."""
        self.spent += n
        if self.spent > self.chars:
            raise BudgetExceeded(f"more than {self.chars:,} characters of source to scan")
        if time.monotonic() > self.deadline:
            raise BudgetExceeded(f"more than {self.seconds:.0f} s of scanning")


_OPENERS, _CLOSERS = "([{", ")]}"
_SPECIAL = re.compile(r"[\"'`()\[\]{}]")
_PAIRS = {"(": ")", "[": "]", "{": "}"}


class _Brackets:
    """Where `balanced` ends for every bracket of one text, from a single left-to-right pass.

    `balanced` scans from its opener: the closer it finds depends only on the characters from there (string
    literals are skipped as met). The pass from position 0 visits the positions a scan from any of them visits, so
    for an opener on that path the answer is the first later closer where the running depth falls back to the
    opener's level; an opener the pass jumped over (inside a string literal, as seen from the start of the text)
    is scanned on its own, as before, and charged to the budget."""

    def __init__(self, text: str) -> None:
        self.on_path: dict[int, int] = {}  # opener position -> depth before it
        closers: dict[int, list[int]] = {}  # depth after a closer -> closer positions, ascending
        depth, i, n = 0, 0, len(text)
        while True:
            m = _SPECIAL.search(text, i)
            if m is None:
                break
            i = m.start()
            c = text[i]
            if c in "\"'`":
                q = (_STRING if c != "`" else _TEMPLATE).match(text, i)
                i = q.end() if q else i + 1
                continue
            if c in _OPENERS:
                self.on_path[i] = depth
                depth += 1
            else:
                depth -= 1
                closers.setdefault(depth, []).append(i)
            i += 1
        self.closers = closers

    def close(self, open_pos: int) -> int | None:
        level = self.on_path.get(open_pos)
        if level is None:
            return None
        found = self.closers.get(level, ())
        k = bisect.bisect_right(found, open_pos)
        return found[k] if k < len(found) else None


_TABLES = threading.local()  # per thread: (text, its _Brackets) for the last few texts


def _brackets(text: str) -> _Brackets:
    """The `_Brackets` of `text`, computed once per text (the last few texts of this thread are kept)."""
    cache: list[tuple[str, _Brackets]] = _TABLES.__dict__.setdefault("recent", [])
    for seen, table in cache:
        if seen is text:
            return table
    table = _Brackets(text)
    cache.insert(0, (text, table))
    del cache[4:]
    return table


def _scan_close(text: str, open_pos: int, budget: Budget | None) -> int | None:
    """The original scan from `open_pos` (strings skipped as met); its length is charged to `budget`."""
    depth = 0
    i = open_pos
    try:
        while i < len(text):
            c = text[i]
            if c in "\"'`":
                m = (_STRING if c != "`" else _TEMPLATE).match(text, i)
                i = m.end() if m else i + 1
                continue
            if c in _OPENERS:
                depth += 1
            elif c in _CLOSERS:
                depth -= 1
                if depth == 0:
                    return i
            i += 1
        return None
    finally:
        if budget is not None:
            budget.charge(i - open_pos)


def balanced_end(text: str, open_pos: int, budget: Budget | None = None) -> int | None:
    """The index of the closer matching the `(`/`[`/`{` at `open_pos` (any closer kind counts, strings skipped), or
    None (no opener there, or never closed). Linear in `len(text)` over all calls for one text: one pass per text
    answers every opener outside string literals; an opener inside one is scanned on its own and charged to
    `budget` (may raise BudgetExceeded)."""
    if open_pos >= len(text) or text[open_pos] not in _PAIRS:
        return None
    table = _brackets(text)
    if open_pos in table.on_path:
        return table.close(open_pos)
    return _scan_close(text, open_pos, budget)


def balanced(text: str, open_pos: int, budget: Budget | None = None) -> str | None:
    """The text between the `(`/`[`/`{` at `open_pos` and its matching closer (strings skipped), or None.
    `budget`: charged with the length returned (and any local scan, see `balanced_end`); may raise
    BudgetExceeded."""
    end = balanced_end(text, open_pos, budget)
    if end is None:
        return None
    if budget is not None:
        budget.charge(end - open_pos)
    return text[open_pos + 1 : end]


def string_literals(text: str) -> list[str]:
    """Contents of the string literals in `text`, in order (quotes removed, escapes left as written)."""
    out = []
    for m in _STRING.finditer(text):
        s = m.group(0)
        q = 3 if s.startswith('"""') else 1
        out.append(s[q:-q])
    return out


def split_top_level(args: str) -> list[str]:
    """`args` split on commas that are not nested in brackets or strings."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(args):
        c = args[i]
        if c in "\"'":
            m = _STRING.match(args, i)
            i = m.end() if m else i + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(args[start:i])
            start = i + 1
        i += 1
    parts.append(args[start:])
    return [p.strip() for p in parts if p.strip()]


def keyword_arg(args: str, *names: str) -> str | None:
    """The expression of the first `name=expr` (or `name: expr`) top-level argument among `names`, or None."""
    for part in split_top_level(args):
        m = re.match(r"([A-Za-z_]\w*)\s*[=:](?!=)\s*(.*)$", part, re.S)
        if m and m.group(1) in names:
            return m.group(2)
    return None


def positional_args(args: str) -> list[str]:
    """Top-level arguments that are not `name=expr`."""
    return [p for p in split_top_level(args) if not re.match(r"[A-Za-z_]\w*\s*=(?!=)", p)]


@dataclass(frozen=True)
class Annotation:
    """One annotation/decorator: simple `name` (last dotted part) and its raw `args` (None without parens)."""

    name: str
    args: str | None


@dataclass(frozen=True)
class AnnotationBlock:
    """A run of consecutive annotations and whether it decorates a type (class/interface/...) or a member."""

    annotations: tuple[Annotation, ...]
    on_type: bool
    start: int
    end: int

    def get(self, *names: str) -> Annotation | None:
        """The first annotation whose simple name is one of `names`."""
        return next((a for a in self.annotations if a.name in names), None)


def mask_strings(text: str) -> str:
    """`text` with the contents of string literals replaced by spaces (quotes and newlines kept, offsets unchanged)."""

    def blank(m: re.Match[str]) -> str:
        s = m.group(0)
        q = 3 if s.startswith('"""') else 1
        return s[:q] + re.sub(r"[^\n]", " ", s[q:-q]) + s[-q:]

    return _STRING.sub(blank, text)


def annotation_blocks(text: str, budget: Budget | None = None) -> Iterator[AnnotationBlock]:
    """Runs of `@Name(args)` annotations in comment-free Java/Kotlin/TypeScript source, in order.
    An `@` inside a string literal is not an annotation. `budget`: charged with each argument list (may raise
    BudgetExceeded)."""
    masked = mask_strings(text)
    pos = 0
    while True:
        m = _ANNOTATION.search(masked, pos)
        if not m:
            return
        start = m.start()
        annotations: list[Annotation] = []
        i = start
        while True:
            m = _ANNOTATION.match(text, i)
            if not m:
                break
            name = m.group(1).rsplit(".", 1)[-1]
            j = m.end()
            k = j
            while k < len(text) and text[k] in " \t":
                k += 1
            args = None
            if k < len(text) and text[k] == "(":
                args = balanced(text, k, budget)
                j = k + len(args) + 2 if args is not None else k + 1
            annotations.append(Annotation(name, args))
            i = j
            while i < len(text) and text[i].isspace():
                i += 1
        pos = max(i, start + 1)
        yield AnnotationBlock(tuple(annotations), bool(_DECL_AFTER.match(text, i)), start, i)
