"""Routes of hand-written dispatchers, for the static check of docs/scoring.md "API Coverage".

Services without a routing framework (JDK `HttpServer` with one root handler, Python `http.server`, Node
`http.createServer`) route by comparing the request path with literals:
`if (path.equals("/api/items") && method.equals("POST"))`, `path.matches("/api/items/[^/]+")`,
`if self.path == "/health"` inside `def do_GET`. This module turns such comparisons into routes.
Regex-level only (no parsing); used by `static_routes`.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from .paths import HTTP_METHODS

_M = "|".join(HTTP_METHODS)
_STR = r"(?:\"([^\"\n]*)\"|'([^'\n]*)')"
#: How far after a path comparison its method checks are looked for (characters).
SEGMENT_CHARS = 2000

#: Files containing one of these are dispatchers.
_DISPATCHER_MARKERS = re.compile(
    r"getRequestMethod\s*\(|getRequestURI\s*\(|HttpExchange\b|BaseHTTPRequestHandler|\bself\.path\b|PATH_INFO"
    r"|\bcreateServer\s*\(|\breq(?:uest)?\.url\b"
)
_METHOD_LITERAL = re.compile(rf"[\"']({_M})[\"']")
_PY_DO_METHOD = re.compile(rf"(?m)^[ \t]*def[ \t]+(?:do_({_M})\b|\w+)")
_CONSTANT = re.compile(
    r"(?:\bString|\bval|\bvar|\bconst|\blet|^[ \t]*)\s*([A-Za-z_]\w*)\s*(?::\s*\w+\s*)?=\s*" + _STR + r"\s*;?",
    re.M,
)


@dataclass(frozen=True)
class Comparison:
    """A request-path comparison: where it is, the path (raw literal or converted regex) and `prefix` when it is a
    `startsWith` test."""

    start: int
    end: int
    path: str
    prefix: bool


def is_dispatcher(text: str) -> bool:
    """True when the source handles raw requests itself (see module docstring)."""
    return bool(_DISPATCHER_MARKERS.search(text))


def dispatch_routes(text: str, *, python: bool) -> Iterator[tuple[frozenset[str] | None, str, bool]]:
    """(methods or None for any, path, is_prefix) for each path comparison of a dispatcher's comment-free source.

    Methods: the enclosing `def do_GET`-style handler (Python); else the method literals (`"GET"`) on the
    comparison's line; else those in the code after it, up to the next comparison (at most SEGMENT_CHARS);
    else any method.
    """
    comparisons = sorted(_comparisons(text, python), key=lambda c: c.start)
    handlers = [(m.start(), m.group(1)) for m in _PY_DO_METHOD.finditer(text)] if python else []
    for i, c in enumerate(comparisons):
        methods: set[str] = set()
        enclosing = [name for pos, name in handlers if pos < c.start]
        if enclosing and enclosing[-1]:
            methods = {enclosing[-1]}
        if not methods:
            line_start = text.rfind("\n", 0, c.start) + 1
            line_end = text.find("\n", c.end)
            methods = set(_METHOD_LITERAL.findall(text[line_start : line_end if line_end >= 0 else len(text)]))
        if not methods:
            stop = comparisons[i + 1].start if i + 1 < len(comparisons) else len(text)
            methods = set(_METHOD_LITERAL.findall(text[c.end : min(stop, c.end + SEGMENT_CHARS)]))
        yield (frozenset(methods) or None), c.path, c.prefix


def regex_to_path(pattern: str) -> str | None:
    """A route regex as a path: `^/api/items/(\\d+)$` -> `/api/items/{param}`; None when it is not a plain path."""
    p = pattern.replace("\\\\", "\\")
    p = re.sub(r"^\^|\$$|^\\A|\\Z$", "", p)
    p = re.sub(r"\(\?P?<\w+>[^()]*\)", "{param}", p)
    p = re.sub(r"\((?:\?:)?[^()]*\)", "{param}", p)
    p = re.sub(r"(?:\[[^\]]*\]|\\[dwS]|\.)[+*]", "{param}", p)
    p = re.sub(r"/\?$", "", p)
    p = p.replace("\\/", "/").replace("\\.", ".").replace("\\-", "-")
    if not p.startswith("/") or re.search(r"[\[\]()*+?|\\^$]", p):
        return None
    return p


def _literal(m: re.Match[str], group: int) -> str:
    return m.group(group) if m.group(group) is not None else m.group(group + 1)


def _comparisons(text: str, python: bool) -> Iterator[Comparison]:
    constants: dict[str, str] = {}
    for m in _CONSTANT.finditer(text):
        value = _literal(m, 2)
        if value.startswith("/"):
            constants[m.group(1)] = value

    def expr_path(expr: str) -> str | None:
        """A path from `"/x"`, `CONST` or `CONST + "/y"`."""
        total = ""
        for part in re.findall(r"\"[^\"\n]*\"|'[^'\n]*'|[^\s+\"']+", expr):
            m = re.fullmatch(_STR, part)
            if m:
                total += _literal(m, 1)
            elif part in constants:
                total += constants[part]
            else:
                return None
        return total if total.startswith("/") else None

    call = re.compile(
        r"\.\s*(equals|equalsIgnoreCase|contentEquals|matches|startsWith|startswith)\s*\(\s*([^()\n]{1,200}?)\s*\)"
    )
    for m in call.finditer(text):
        path = expr_path(m.group(2))
        if path is None:
            continue
        if m.group(1) == "matches":
            converted = regex_to_path(path)
            if converted is not None:
                yield Comparison(m.start(), m.end(), converted, False)
        else:
            yield Comparison(m.start(), m.end(), path, m.group(1).lower() == "startswith")
    # "/x".equals(path)
    for m in re.finditer(_STR + r"\s*\.\s*equals(?:IgnoreCase)?\s*\(", text):
        path = _literal(m, 1)
        if path.startswith("/"):
            yield Comparison(m.start(), m.end(), path, False)
    # path == "/x", "/x" == path, path === '/x', case "/x":
    for m in re.finditer(r"(?:={2,3}|!={1,2})\s*" + _STR + r"|" + _STR + r"\s*(?:={2,3})|\bcase\s+" + _STR, text):
        path = next(g for g in m.groups() if g is not None)
        if path.startswith("/") and path != "/":  # a bare '/' is as often a character test as the root route
            yield Comparison(m.start(), m.end(), path, False)
    # re.match(r"^/x/(\d+)$", path); NAME = re.compile(...) / Pattern.compile(...) counts where NAME is used
    for m in re.finditer(
        r"(?:\b(\w+)\s*=\s*)?(Pattern\.compile|re\.(?:match|fullmatch|search|compile))\s*\(\s*[rb]?" + _STR, text
    ):
        converted = regex_to_path(_literal(m, 3))
        if converted is None:
            continue
        name = m.group(1) if m.group(2) in ("Pattern.compile", "re.compile") else None
        uses = list(re.finditer(rf"\b{name}\s*\.\s*(?:match|fullmatch|search|matcher)\s*\(", text)) if name else []
        for use in uses or [m]:
            yield Comparison(use.start(), use.end(), converted, False)
    if python:
        # path in ("/a", "/b")
        for m in re.finditer(r"\bin\s*[(\[{]([^()\[\]{}\n]*)[)\]}]", text):
            for s in re.finditer(_STR, m.group(1)):
                path = _literal(s, 1)
                if path.startswith("/"):
                    yield Comparison(m.start(), m.end(), path, False)
