"""The dynamic endpoint probe of docs/scoring.md "API Coverage": which declared endpoints does the running service
implement?

For each endpoint: fingerprint the service's "no such route" reply for the same method on a random unknown path
under the same prefix, then request the endpoint itself and compare.
"""
from __future__ import annotations

import asyncio
import enum
import re
import secrets
import time
from dataclasses import dataclass
from urllib.parse import quote

import httpx

from .paths import PARAM, Endpoint, fill_params, normalize_path

#: Statuses meaning "no such route" (docs/scoring.md "API Coverage").
NOT_FOUND_STATUSES = frozenset({404, 405, 501})
#: At most this many bytes of a reply body are read and compared.
MAX_BODY_BYTES = 64 * 1024
#: Methods that get a JSON body `{}`.
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


class Reason(str, enum.Enum):
    """Why the probe decided what it did for one endpoint."""

    STATUS = "status"  # the endpoint answered a status other than 404/405/501: implemented
    BODY_DIFFERS = "body_differs"  # 404, but not the service's "no such route" 404: implemented
    NOT_FOUND = "not_found"  # 404 with the fingerprint's body, 405 or 501: not implemented
    ENDPOINT_ERROR = "endpoint_error"  # connection error or time-out on the endpoint: not implemented
    CATCH_ALL = "catch_all"  # the unknown paths answered alike, not 404, and so did the endpoint: not implemented
    CATCH_ALL_DIFFERS = "catch_all_differs"  # unknown paths answer alike (not 404); the endpoint differs: implemented
    CATCH_ALL_UNSTABLE = "catch_all_unstable"  # two unknown paths answered differently (not 404): not implemented
    FINGERPRINT_ERROR = "fingerprint_error"  # no connection for the unknown path (the service is gone): inconclusive
    FINGERPRINT_TIMEOUT = "fingerprint_timeout"  # the service stalled on an unknown path: not implemented
    UNSTABLE_404 = "unstable_404"  # unknown paths got 404s with different bodies; so did the endpoint: not implemented
    BUDGET_EXHAUSTED = "budget_exhausted"  # the service used up the probe's time budget first: not implemented

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class ProbeObservation:
    """What was seen for one endpoint: statuses (None when not requested or no reply) and the reason."""

    implemented: bool | None
    reason: Reason
    endpoint_status: int | None
    fingerprint_status: int | None


@dataclass(frozen=True)
class ProbeResult:
    """`results`: endpoint -> True (implemented) / False (not) / None (inconclusive: decide statically).
    `observations`: the same keys with statuses and reasons, for the task report."""

    results: dict[Endpoint, bool | None]
    observations: dict[Endpoint, ProbeObservation]


@dataclass(frozen=True)
class _Reply:
    status: int
    body: str


def probe_endpoints(*, base_url: str, endpoints: list[Endpoint], timeout: float = 5.0,
                    budget: float | None = None) -> ProbeResult:
    """Probe each endpoint of the service at `base_url` (e.g. `"http://127.0.0.1:8083"`), per docs/scoring.md
    "API Coverage".

    For each endpoint (method M, normalised path P):
    1. fingerprint: M on two random unknown paths `<prefix>/<6-12 random letters>` (shaped like routes, so they
       cannot be told from real ones by their form), where `<prefix>` is P's first segment when P has two or more
       segments and the first is not a parameter (`/api/v1/x` -> `/api/<word>`), else the root; cached per
       (M, prefix) within one call. No connection -> None (`fingerprint_error`: the service is gone, the static
       check decides); connected but no answer in time -> not implemented (`fingerprint_timeout`). When the two
       replies differ: both 404 -> only a status other than 404/405/501 counts for the endpoint
       (`unstable_404`); otherwise the service answers anything, differently, and nothing is implemented
       (`catch_all_unstable`). A stable reply other than 404 is a catch-all: the endpoint is implemented only
       when its reply differs from it (`catch_all_differs`, else `catch_all`), so dead route code behind a
       catch-all earns nothing.
    2. endpoint: M on P with every parameter filled with `1`, JSON body `{}` for POST/PUT/PATCH, no auth,
       redirects not followed. Implemented when the status is not 404/405/501, or it is 404 with a body that
       differs from the fingerprint's. Bodies are compared after replacing the requested path (and the random
       segment) with a placeholder and masking timestamps, UUIDs and long digit runs, so a "no such route" page
       that echoes the path or the time (Express, Spring) still compares equal. No answer in time -> False.
    3. when step 2 found nothing and P does not end in `/`, P + `/` is tried the same way (READMEs such as
       Django's declare trailing slashes that normalisation drops); only a non-redirect answer counts there.
    `timeout` is the wall-clock limit in seconds of each request, whatever the service trickles; `budget` (seconds,
    None: unlimited) bounds the whole probe, each request getting at most what is left of it: endpoints not
    reached in time are not implemented (`budget_exhausted`; a service that slow earns no coverage for them).
    Environment proxies are ignored.
    Returns a ProbeResult with every endpoint as a key. Raises nothing for service misbehaviour.
    """
    return asyncio.run(_probe_all(base_url=base_url, endpoints=endpoints, timeout=timeout, budget=budget))


async def _probe_all(*, base_url: str, endpoints: list[Endpoint], timeout: float,
                     budget: float | None) -> ProbeResult:
    results: dict[Endpoint, bool | None] = {}
    observations: dict[Endpoint, ProbeObservation] = {}
    fingerprints: dict[tuple[str, str], _Reply | None] = {}
    async with httpx.AsyncClient(
        base_url=base_url, timeout=timeout, follow_redirects=False, trust_env=False
    ) as client:
        deadline = None if budget is None else time.monotonic() + budget
        for endpoint in endpoints:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                observation = ProbeObservation(False, Reason.BUDGET_EXHAUSTED, None, None)
            else:  # no request outlasts the budget: each gets at most what is left of it
                observation = await _probe_one(client, endpoint, fingerprints,
                                               timeout if left is None else max(0.05, min(timeout, left)))
            results[endpoint] = observation.implemented
            observations[endpoint] = observation
    return ProbeResult(results, observations)


async def _probe_one(
    client: httpx.AsyncClient,
    endpoint: Endpoint,
    fingerprints: dict[tuple[str, str], _Reply | None],
    timeout: float,
) -> ProbeObservation:
    method = endpoint.method
    path = normalize_path(endpoint.path)
    key = (method, _prefix(path))
    if key not in fingerprints:
        fingerprints[key] = await _fingerprint(client, method, key[1], timeout)
    fingerprint = fingerprints[key]
    if fingerprint is None:
        return ProbeObservation(None, Reason.FINGERPRINT_ERROR, None, None)
    if fingerprint is _STALLED:
        return ProbeObservation(False, Reason.FINGERPRINT_TIMEOUT, None, None)

    concrete = fill_params(path)
    reply = await _request(client, method, concrete, timeout)
    if reply is None or reply is _STALLED:
        return ProbeObservation(False, Reason.ENDPOINT_ERROR, None,
                                None if fingerprint is _UNSTABLE else fingerprint.status)
    if fingerprint is _UNSTABLE:  # unknown paths answer anything, differently: nothing can be told apart
        return ProbeObservation(False, Reason.CATCH_ALL_UNSTABLE, reply.status, None)
    if fingerprint is _UNSTABLE_404:  # no stable "no such route" body to compare with: only a route's status counts
        if reply.status in NOT_FOUND_STATUSES:
            return ProbeObservation(False, Reason.UNSTABLE_404, reply.status, 404)
        return ProbeObservation(True, Reason.STATUS, reply.status, 404)
    if fingerprint.status != 404:
        same = reply.status == fingerprint.status and _shape(reply.body, concrete, None) == fingerprint.body
        return ProbeObservation(not same, Reason.CATCH_ALL if same else Reason.CATCH_ALL_DIFFERS, reply.status,
                                fingerprint.status)
    decision = _decide(reply, concrete, fingerprint)
    if decision is Reason.NOT_FOUND and reply.status == 404 and concrete != "/":
        slashed = await _request(client, method, concrete + "/", timeout)
        if slashed is not None and slashed is not _STALLED and not 300 <= slashed.status < 400:
            retry = _decide(slashed, concrete + "/", fingerprint)
            if retry is not Reason.NOT_FOUND:
                return ProbeObservation(True, retry, slashed.status, fingerprint.status)
    return ProbeObservation(decision is not Reason.NOT_FOUND, decision, reply.status, fingerprint.status)


#: The fingerprint of a service whose unknown paths answer differently from each other.
_UNSTABLE = _Reply(0, "")
#: ... whose unknown paths all answer 404, with bodies that differ (a request id, say): only statuses can tell.
_UNSTABLE_404 = _Reply(404, "\x00unstable\x00")
#: What `_request` returns when the service accepted the connection but did not answer within the time limit.
_STALLED = _Reply(-1, "")


def _unknown_segment() -> str:
    """A random path segment shaped like a route's (lower-case letters, 6 to 12 of them), so a service cannot tell
    the probe's unknown paths from real ones by their form."""
    return "".join(secrets.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(6 + secrets.randbelow(7)))


async def _fingerprint(client: httpx.AsyncClient, method: str, prefix: str, timeout: float) -> _Reply | None:
    """The service's shaped reply (see `probe_endpoints`) to `method` on two random unknown paths under `prefix`:
    `_UNSTABLE` when they differ (status or shaped body), `_STALLED` when the service did not answer in time,
    None when there was no connection."""
    replies = []
    for _ in range(2):
        token = _unknown_segment()
        unknown = f"{prefix}/{token}"
        reply = await _request(client, method, unknown, timeout)
        if reply is None or reply is _STALLED:
            return reply
        replies.append(_Reply(reply.status, _shape(reply.body, unknown, token)))
    if replies[0] == replies[1]:
        return replies[0]
    return _UNSTABLE_404 if replies[0].status == replies[1].status == 404 else _UNSTABLE


def _decide(reply: _Reply, path: str, fingerprint: _Reply) -> Reason:
    if reply.status not in NOT_FOUND_STATUSES:
        return Reason.STATUS
    if reply.status == 404 and _shape(reply.body, path, None) != fingerprint.body:
        return Reason.BODY_DIFFERS
    return Reason.NOT_FOUND


def _prefix(path: str) -> str:
    segments = [s for s in path.split("/") if s]
    if len(segments) >= 2 and PARAM not in segments[0]:
        return "/" + segments[0]
    return ""


async def _request(client: httpx.AsyncClient, method: str, path: str, timeout: float) -> _Reply | None:
    """One request, within `timeout` seconds of wall-clock time in all (connecting, the status line and headers, the
    body), so a service that trickles one byte at a time cannot stretch it (issue 15, escape 8); at most
    MAX_BODY_BYTES of the body. A reply whose body is cut by the deadline keeps what arrived. None on a connection
    error, `_STALLED` when the connection was made but no status and headers arrived in time."""
    kwargs: dict[str, object] = {"json": {}} if method in BODY_METHODS else {}
    status: int | None = None
    chunks: list[bytes] = []
    try:
        async with asyncio.timeout(timeout):
            async with client.stream(method, path, **kwargs) as response:
                status = response.status_code
                size = 0
                async for chunk in response.aiter_bytes():
                    chunks.append(chunk)
                    size += len(chunk)
                    if size >= MAX_BODY_BYTES:
                        break
    except TimeoutError:
        if status is None:
            return _STALLED
    except httpx.TimeoutException:
        if status is None:
            return _STALLED
    except httpx.HTTPError:
        if status is None:
            return None
    body = b"".join(chunks)[:MAX_BODY_BYTES]
    return _Reply(status, body.decode("utf-8", errors="replace"))


_VOLATILE = [
    re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?"),
    re.compile(r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT\b"),
    re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b"),
    re.compile(r"\d{10,}(?:\.\d+)?"),
]


def _shape(body: str, path: str, token: str | None) -> str:
    """The parts of a reply body that identify a "no such route" page (see `probe_endpoints`)."""
    for variant in sorted({path, quote(path), path.rstrip("/")}, key=len, reverse=True):
        if len(variant) < 2:
            continue
        body = body.replace(variant, "\x00path\x00")
    if token:
        body = body.replace(token, "\x00token\x00")
    for pattern in _VOLATILE:
        body = pattern.sub("\x00v\x00", body)
    return " ".join(body.split())
