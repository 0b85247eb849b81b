"""The board's cache (issue 14, "a fast board"): ranked rows, significance groups and whole responses computed once
per change of the results, then read from Django's cache (`CACHES`: local memory by default, Redis with
`CACHE_URL=redis://...`).

Every entry's key holds the board version (models.BoardVersion, one row in the database, read with one query per
request): a change the board shows bumps it, and the next request of every web process computes afresh; older
entries are never read again and expire after CACHE_SECONDS. What bumps it:
- post_save / post_delete of a run, a task result, a submission, a system, a team, a published row (verified or
  not, by the admin's actions or catalog.services), a task, a split or a benchmark (a result of a running run is
  stored by an UPDATE and bumps nothing: the board shows finished runs only);
- catalog.signals.board_changed, sent after the bulk UPDATEs that send no post_save: a run finished
  (evaluation.pipeline.run_finalize_if_done), a submission withdrawn (submissions.services.submission_withdraw), a
  benchmark version superseded (catalog.services.benchmark_import).
A rescore is a new run (post_save) and, when it finishes, run_finalize_if_done's signal.
"""
from __future__ import annotations

import functools
import hashlib
import secrets
from pathlib import Path
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.core.cache import cache
from django.db.models.signals import post_delete, post_save

from leaderboard.models import BoardVersion

T = TypeVar("T")
#: Seconds an entry is kept: a bound on the cache's size only (an entry of an old version is never read).
CACHE_SECONDS = 24 * 3600


def board_version() -> int:
    """The current board version (one query; 0 before anything was ever recorded): an opaque number."""
    value = BoardVersion.objects.filter(pk=1).values_list("value", flat=True).first()
    return value or 0


def board_version_bump(**_: Any) -> None:
    """Give the board a new version (in the caller's transaction, so it rolls back with it). The version is a
    random 62-bit number, not a counter: a rolled-back transaction or a database restored from a backup can never
    bring back a number whose cache entries hold other results. Takes and ignores signal keyword arguments, so it
    can be connected as a receiver."""
    value = secrets.randbits(62) + 1
    if not BoardVersion.objects.filter(pk=1).update(value=value):
        BoardVersion.objects.update_or_create(pk=1, defaults={"value": value})


#: The code that shapes what the board shows (its rows, rules, pages and answers): a release that changes any of it
#: never reads entries an older release wrote into a shared cache (Redis outlives a deploy).
CODE_FOLDERS = ("core/grading", "leaderboard", "templates")


@functools.lru_cache(maxsize=1)
def code_digest() -> str:
    """A digest of the source files under CODE_FOLDERS (read once per process): 16 hex characters."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for folder in CODE_FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in (".py", ".html") and "migrations" not in path.parts:
                digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def board_key(*parts: Any, version: int | None = None) -> str:
    """A cache key `board:v<version>:<code digest>:<sha256 of parts>` (parts: anything with a stable repr, e.g. the
    split's pk, the view, a sorted query string)."""
    digest = hashlib.sha256(repr(parts).encode()).hexdigest()[:32]
    return f"board:v{board_version() if version is None else version}:{code_digest()}:{digest}"


def board_cached(parts: Iterable[Any], compute: Callable[[], T], *, version: int | None = None) -> T:
    """`compute()`'s value for these key parts at the board's current version: read from the cache, else computed
    and stored for CACHE_SECONDS. The version is read before computing, so a change committed meanwhile is seen
    by the next request."""
    key = board_key(*parts, version=version)
    found = cache.get(key)
    if found is not None:
        return found
    value = compute()
    cache.set(key, value, CACHE_SECONDS)
    return value


def connect_signals() -> None:
    """Connect board_version_bump to the saves and deletes of every model the board reads, and to
    catalog.signals.board_changed (called by LeaderboardConfig.ready)."""
    from catalog.models import Benchmark, ReportedResult, Split, System, Task, Team
    from catalog.signals import board_changed
    from evaluation.models import EvaluationRun, TaskResult
    from submissions.models import Submission

    for model in (EvaluationRun, TaskResult, Submission, System, Team, ReportedResult, Task, Split, Benchmark):
        post_save.connect(board_version_bump, sender=model, dispatch_uid=f"board-version-save-{model.__name__}")
        post_delete.connect(board_version_bump, sender=model, dispatch_uid=f"board-version-delete-{model.__name__}")
    board_changed.connect(board_version_bump, dispatch_uid="board-version-changed")


def board_cached_response(request, parts: Iterable[Any], compute: Callable[[], Any]):
    """The API answer for `compute()`'s data, cached per board version and `parts` like `board_cached`. A JSON
    answer is kept rendered (bytes), so a cached request costs no JSON rendering (a large board is megabytes of it);
    another format the client negotiated (DRF's browsable API) is rendered from the cached data. `request` is a DRF
    Request after content negotiation (inside an APIView's handler)."""
    from django.http import HttpResponse
    from rest_framework.renderers import JSONRenderer
    from rest_framework.response import Response

    parts, version = tuple(parts), board_version()  # one version read for both entries

    def data() -> Any:
        return board_cached(("data", *parts), compute, version=version)

    renderer = request.accepted_renderer
    if not isinstance(renderer, JSONRenderer):
        return Response(data())
    # the rendered bytes first: a hit never unpickles the data (7 ms for a board of 1,000 systems)
    body = board_cached(("json", renderer.__class__.__name__, *parts), lambda: renderer.render(data()),
                        version=version)
    return HttpResponse(body, content_type=f"{request.accepted_media_type or renderer.media_type}")


#: Accept headers the JSON answer serves as it is (what DRF's negotiation would pick JSONRenderer for).
JSON_ACCEPTS = frozenset({"", "*/*", "application/json"})


def cached_json_answer(request, parts: Iterable[Any]):
    """The cached JSON answer of `board_cached_response` for these key parts, before DRF's dispatch (no
    authentication, permission, throttle or serializer work: a cached board answer costs the board version's
    query), or None when there is none yet or the request needs DRF: not a GET or HEAD, credentials sent (an
    answer never depends on them, but DRF refuses bad ones), or a format other than JSON asked for. `request` is
    Django's HttpRequest."""
    from django.http import HttpResponse
    from rest_framework.renderers import JSONRenderer

    if request.method not in ("GET", "HEAD") or "HTTP_AUTHORIZATION" in request.META \
            or request.META.get("HTTP_ACCEPT", "").strip() not in JSON_ACCEPTS:
        return None
    body = cache.get(board_key("json", JSONRenderer.__name__, *parts))
    if body is None:
        return None
    response = HttpResponse(body, content_type=JSONRenderer.media_type)
    response["Vary"] = "Accept"
    return response

