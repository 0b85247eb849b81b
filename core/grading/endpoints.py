"""Declared endpoints: extraction from a task README (docs/scoring.md "API Coverage": declared endpoints).

`extract_endpoints` finds (HTTP method, path) pairs in markdown, normalises their paths and de-duplicates them.
`Endpoint`, `normalize_path` (module `paths`) and `static_routes_match` (module `static_routes`) are re-exported
here so callers have one import for everything about endpoints.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from .paths import HTTP_METHODS, Endpoint, normalize_path
from .static_routes import static_routes_match

__all__ = ["Endpoint", "extract_endpoints", "normalize_path", "static_routes_match"]

_M = "|".join(HTTP_METHODS)
# A path as written in prose: starts with "/", stops at whitespace and markdown punctuation.
_P = r"/[^\s`'\"|*()\[\],;]*"
_FMT = r"[*_`]{0,2}"

# `GET /x` inside one inline code span, anywhere on a line.
_CODE_SPAN = re.compile(rf"`\s*({_M})\s+({_P})[^`]*`")
# A method (optionally bold/code) followed by a path in its own code span: **GET** `/x`, POST `/x`, `GET` `/x`.
_METHOD_THEN_CODE_PATH = re.compile(rf"(?<![\w/]){_FMT}({_M}){_FMT}\s*[:\-–—]?\s*`\s*({_P})[^`]*`")
# Leading list/heading/quote markers and an optional "Label:" before the method at the start of a line.
_LINE_START = re.compile(
    r"^\s*(?:(?:#{1,6}|>|[-*+]|\d+[.)])\s+)*"
    r"(?:[*_]{0,2}[A-Za-z\u00c0-\uffff][\w \-/\u00c0-\uffff]{0,40}?[*_]{0,2}\s*[:：]\s*)?"
    rf"{_FMT}({_M}){_FMT}\s+{_FMT}\s*({_P})"
)
# In fenced code: a request line `GET /x HTTP/1.1` or `GET http://host/x`.
_CODE_REQUEST_LINE = re.compile(rf"^\s*({_M})\s+(?:https?://[^/\s]+)?(/\S*)")
# curl with an explicit method before the URL: curl -X POST http://localhost:8080/x
_URL_HOST = r"(?:https?://[^/\s'\"]+|[\w.-]+:\d+|\$\{?\w+\}?|\{\{\s*\w+\s*\}\})"
_CURL = re.compile(
    rf"\bcurl\b[^\n]*?(?:-X|--request)\s*['\"]?({_M})['\"]?\s[^\n]*?['\"]?{_URL_HOST}(/[^\s'\"`]*)"
)
# "- **Method**: `GET`" and "- **Path**: `/x`" on separate lines of one section.
_LABEL_METHOD = re.compile(
    rf"^\s*(?:[-*+]\s+)?[*_]{{0,2}}(?:HTTP\s+)?(?:method|verb)[*_]{{0,2}}\s*[:：]\s*{_FMT}({_M}){_FMT}\s*$", re.I
)
_LABEL_PATH = re.compile(
    rf"^\s*(?:[-*+]\s+)?[*_]{{0,2}}(?:path|endpoint|url|uri|route)[*_]{{0,2}}\s*[:：]\s*{_FMT}\s*({_P})", re.I
)
_HEADING = re.compile(r"^\s*#{1,6}\s")
_FENCE = re.compile(r"^\s*(```|~~~)")
_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_EXAMPLE_ID = re.compile(r"^(\d+|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$")
_METHOD_WORD = re.compile(rf"^(?:{_M})$")


def extract_endpoints(readme: str) -> list[Endpoint]:
    """Declared endpoints of a README, de-duplicated on the normalised (method, path), in first-seen order.

    Recognised (docs/scoring.md "API Coverage"; paths must start with `/`):
    - headings and list items: `### POST /api/todos`, `#### \\`GET /users/{id}\\``, `- GET /x`,
      `- **Endpoint**: \\`POST /x\\``, a bare line `GET /health`;
    - a method next to a code-span path anywhere: `**GET** \\`/items\\``, `GET \\`/people/{id}\\``, and a
      code span holding both: `\\`DELETE /x/{id}\\``;
    - tables with a Method column and a Path/Endpoint/URL/Route column, or cells holding `GET /x`;
    - `- **Method**: GET` followed in the same section by `- **Path**: /x`;
    - in fenced code only: lines starting with the method (`GET /x HTTP/1.1`, `GET http://host/x`);
    - `curl -X POST http://host:port/x` in code or inline (a URL without a method before it is not an endpoint).
    In request lines and curl examples all-digit and UUID segments are parameters (`/items/42` -> `/items/{param}`).
    Returns a list of `Endpoint` with normalised paths. Never raises.
    """
    found: dict[Endpoint, None] = {}
    for method, path in _candidates(readme):
        endpoint = _endpoint(method, path)
        if endpoint is not None:
            found.setdefault(endpoint, None)
    return _with_base_path(list(found), readme)


#: A README's statement of the API's base path: "- **Base Path**: `/api/v1`", "API Base Path: /api/v1",
#: "Base URL: `http://localhost:8080/api/v1`", "Namespace prefix: /api/v1", "All APIs are prefixed with `/api`".
_BASE_PATH = re.compile(
    r"(?:\bbase\s*(?:path|url)(?:\s+of\s+the\s+api)?|\bnamespace\s*prefix|\bprefixed\s+with)\**\s*[:=]?\s*\**\s*`?"
    r"(?:https?://[^/\s`'\"]+)?(/[\w\-./]*)?", re.I)


def declared_base_path(readme: str) -> str:
    """The base path the README states for its API (`/api/v1`), or "" when it states none or `/`."""
    for match in _BASE_PATH.finditer(readme):
        if match.group(1) is not None:
            return match.group(1).rstrip("/.")
    return ""


def _with_base_path(endpoints: list[Endpoint], readme: str) -> list[Endpoint]:
    """Endpoints listed relative to a stated base path get it (docs/scoring.md "API Coverage"): all of them when
    none is written with it (Timer4Tasker lists `/tasks` under a base URL ending in `/api/v1`); otherwise only those
    whose prefixed form also appears in the README (an example URL), so an endpoint documented at the root stays."""
    base = declared_base_path(readme)
    if not base:
        return endpoints
    relative = [e for e in endpoints if not (e.path == base or e.path.startswith(base + "/"))]
    if not relative:
        return endpoints
    prefix_all = len(relative) == len(endpoints)
    found: dict[Endpoint, None] = {}
    for e in endpoints:
        if e in relative and (prefix_all or _mentions(readme, base + e.path)):
            e = Endpoint.of(e.method, base + e.path)
        found.setdefault(e, None)
    return list(found)


def _mentions(readme: str, path: str) -> bool:
    """True when `path` (params as `{param}`) appears in the README, any parameter spelling accepted."""
    pattern = re.escape(path).replace(re.escape("{param}"), r"[^/\s`'\"?]+")
    return re.search(pattern + r"(?![\w/])", readme) is not None


def _endpoint(method: str, path: str) -> Endpoint | None:
    path = path.rstrip(".:;,!?")
    if not path.startswith("/"):
        return None
    # "GET /POST" in prose: a method word written in capitals is never a path; `/post` (a blog's posts) is one.
    if _METHOD_WORD.match(path.strip("/")):
        return None
    return Endpoint.of(method, path)


def _candidates(readme: str) -> Iterator[tuple[str, str]]:
    lines = readme.splitlines()
    in_code = False
    pending_method: str | None = None
    pending_path: str | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        if _FENCE.match(line):
            in_code = not in_code
            i += 1
            continue
        if in_code:
            # Join shell continuation lines so a multi-line curl is seen whole.
            while line.rstrip().endswith("\\") and i + 1 < len(lines) and not _FENCE.match(lines[i + 1]):
                i += 1
                line = line.rstrip()[:-1] + " " + lines[i].strip()
            m = _CODE_REQUEST_LINE.match(line)
            if m:
                yield m.group(1), _generalise_example(m.group(2))
            yield from ((m.group(1), _generalise_example(m.group(2))) for m in _CURL.finditer(line))
            i += 1
            continue
        if i + 1 < len(lines) and "|" in line and _TABLE_SEPARATOR.match(lines[i + 1]):
            end = i + 2
            while end < len(lines) and "|" in lines[end] and lines[end].strip():
                end += 1
            yield from _table(lines[i], lines[i + 2 : end])
            i = end
            continue
        if _HEADING.match(line):
            pending_method = pending_path = None
        yield from _inline(line)
        m = _LABEL_METHOD.match(line)
        if m:
            pending_method = m.group(1)
        else:
            m = _LABEL_PATH.match(line)
            if m:
                pending_path = m.group(1)
        if pending_method and pending_path:
            yield pending_method, pending_path
            pending_method = pending_path = None
        i += 1


def _generalise_example(path: str) -> str:
    """An example request's concrete ids (all-digit or UUID segments) become parameters: /items/42 -> /items/{param}."""
    path = path.split("?", 1)[0]
    return "/".join("{param}" if _EXAMPLE_ID.match(s) else s for s in path.split("/"))


def _inline(text: str) -> Iterator[tuple[str, str]]:
    m = _LINE_START.match(text)
    if m:
        yield m.group(1), m.group(2)
    for pattern in (_CODE_SPAN, _METHOD_THEN_CODE_PATH):
        for m in pattern.finditer(text):
            yield m.group(1), m.group(2)
    for m in _CURL.finditer(text):
        yield m.group(1), _generalise_example(m.group(2))


def _cells(row: str) -> list[str]:
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    return [c.strip() for c in re.split(r"(?<!\\)\|", row)]


def _plain(cell: str) -> str:
    return re.sub(r"[*`]", "", cell).strip()


def _table(header: str, rows: list[str]) -> Iterator[tuple[str, str]]:
    names = [_plain(c).lower() for c in _cells(header)]
    method_col = next((k for k, n in enumerate(names) if "method" in n or "verb" in n or n == "http"), None)
    path_col = next(
        (k for k, n in enumerate(names) if k != method_col and re.search(r"path|endpoint|url|uri|route", n)),
        None,
    )
    for row in rows:
        cells = _cells(row)
        if method_col is not None and path_col is not None and max(method_col, path_col) < len(cells):
            methods = [t for t in re.split(r"[\s,/|]+", _plain(cells[method_col]).upper()) if t in HTTP_METHODS]
            path = re.search(_P, re.sub(r"^[A-Za-z][\w+.-]*://[^/\s]*", "", _plain(cells[path_col])))
            if path:
                for method in methods:
                    yield method, path.group(0)
        for cell in cells:
            m = re.match(rf"^({_M})\s+({_P})", _plain(cell))
            if m:
                yield m.group(1), m.group(2)
            yield from _inline(cell)
