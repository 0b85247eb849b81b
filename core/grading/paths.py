"""Endpoint identity and path normalisation (docs/scoring.md "API Coverage": declared endpoints).

Every path placeholder style (`{id}`, `{id:int}`, `<id>`, `<int:id>`, `:id`) becomes the single placeholder
`{param}`, so that the same route written in different frameworks compares equal.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

#: The HTTP methods an endpoint may declare.
HTTP_METHODS: tuple[str, ...] = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")

PARAM = "{param}"

_SCHEME_HOST = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*")
_BRACE_PARAM = re.compile(r"\{[^{}/]*\}")
_ANGLE_PARAM = re.compile(r"<[^<>/]*>")
_COLON_PARAM = re.compile(r"^:[A-Za-z_][A-Za-z0-9_]*\??$")
_SLASHES = re.compile(r"/{2,}")


def normalize_path(path: str) -> str:
    """Normalise a route path for comparison.

    Shape: `"/api/items/<int:id>/?x=1"` -> `"/api/items/{param}"`.
    - a leading `scheme://host[:port]` is dropped; query (`?...`) and fragment (`#...`) are dropped;
    - `{id}`, `{id:int}`, `<id>`, `<int:id>` and a whole segment `:id` become `{param}`;
    - runs of `/` collapse; a leading `/` is added; a trailing `/` is removed (the root stays `"/"`).
    Never raises; an empty string gives `"/"`.
    """
    p = path.strip()
    p = _SCHEME_HOST.sub("", p)
    for sep in ("?", "#"):
        p = p.split(sep, 1)[0]
    p = _BRACE_PARAM.sub(PARAM, p)
    p = _ANGLE_PARAM.sub(PARAM, p)
    segments = [PARAM if _COLON_PARAM.match(s) else s for s in p.split("/")]
    p = "/" + "/".join(segments)
    p = _SLASHES.sub("/", p)
    if len(p) > 1:
        p = p.rstrip("/")  # never empty: runs of "/" are collapsed, so a longer path has another character
    return p


def fill_params(path: str, *, value: str = "1") -> str:
    """The normalised `path` with every `{param}` replaced by `value` (the probe's concrete URL path)."""
    return normalize_path(path).replace(PARAM, value)


@dataclass(frozen=True, order=True)
class Endpoint:
    """A declared endpoint: upper-case HTTP `method` and a normalised `path` (see `normalize_path`).

    Build one with `Endpoint.of(method, path)` to normalise both parts.
    """

    method: str
    path: str

    @classmethod
    def of(cls, method: str, path: str) -> Endpoint:
        """Normalised endpoint. Raises ValueError for a method outside `HTTP_METHODS`."""
        m = method.strip().upper()
        if m not in HTTP_METHODS:
            raise ValueError(f"unknown HTTP method {method!r}")
        return cls(m, normalize_path(path))

    def __str__(self) -> str:
        return f"{self.method} {self.path}"
