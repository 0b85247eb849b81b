"""Small lexical helpers for scanning source text without parsing it (private to `grading`).

Used by `static_routes` (route declarations) and `testcount` (JUnit annotations). Regex-level only: good enough
for declarations that are written literally, never executes or imports anything.
"""
from __future__ import annotations

import re
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


def balanced(text: str, open_pos: int) -> str | None:
    """The text between the `(`/`[`/`{` at `open_pos` and its matching closer (strings skipped), or None."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    if open_pos >= len(text) or text[open_pos] not in pairs:
        return None
    depth = 0
    i = open_pos
    while i < len(text):
        c = text[i]
        if c in "\"'`":
            m = (_STRING if c != "`" else _TEMPLATE).match(text, i)
            i = m.end() if m else i + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return text[open_pos + 1 : i]
        i += 1
    return None


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


def annotation_blocks(text: str) -> Iterator[AnnotationBlock]:
    """Runs of `@Name(args)` annotations in comment-free Java/Kotlin/TypeScript source, in order.
    An `@` inside a string literal is not an annotation."""
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
                args = balanced(text, k)
                j = k + len(args) + 2 if args is not None else k + 1
            annotations.append(Annotation(name, args))
            i = j
            while i < len(text) and text[i].isspace():
                i += 1
        pos = max(i, start + 1)
        yield AnnotationBlock(tuple(annotations), bool(_DECL_AFTER.match(text, i)), start, i)
