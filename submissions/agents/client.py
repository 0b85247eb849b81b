"""The HTTP client that calls an agent endpoint for one task. Django-free.

`call_agent` never raises for anything the agent does: every failure (refused address, connection
errors, timeouts, 4xx/5xx, oversized or unusable answers) comes back as an AgentResult with `ok=False`
and a reason in our own words (never the agent's response body, which could echo an unpublished README).

Rules (docs/agent-protocol.md "Limits"):
- every hop (the endpoint, each redirect, each polled Location) is checked by `guard.check_url` after
  DNS resolution, and the connection goes to the checked address (Host header and TLS SNI keep the name);
- redirects are followed by hand (at most `max_redirects`), 301/302/303 turn the request into a GET;
- the bearer secret is sent only to the endpoint's own origin (scheme, host, port);
- connection errors and 5xx answers are retried with exponential backoff (tenacity), `attempts` tries in
  all; timeouts and 4xx are not;
- the whole exchange, polling included, ends at `deadline` seconds; bodies over `max_bytes` are refused
  while they stream; proxies from the environment are ignored;
- bodies are read raw (`iter_raw`), never decoded: an answer with a Content-Encoding other than identity is
  refused before its body is read, so a few bytes on the wire can never inflate in the worker.
"""
from __future__ import annotations

import ipaddress
import json
import logging
import time
from dataclasses import asdict, dataclass, field
from urllib.parse import urljoin, urlsplit

import httpx
from tenacity import (
    Retrying,
    retry_if_exception_type,
    stop_after_attempt,
    wait_exponential,
)

from .guard import Target, UrlRefused, address_problem, check_url
from .protocol import AnswerError, parse_answer

log = logging.getLogger("submissions.agents")

_REDIRECTS = (301, 302, 303, 307, 308)
_MAX_LOGGED_CALLS = 100


@dataclass(frozen=True)
class AgentLimits:
    """Limits of one task's call. Seconds and bytes; `allowed_networks` from guard.parse_networks."""

    deadline: float = 1800.0
    max_bytes: int = 50 * 1024 * 1024
    attempts: int = 3
    backoff: float = 2.0
    poll_interval: float = 5.0
    connect_timeout: float = 10.0
    max_redirects: int = 3
    allowed_networks: tuple = ()


@dataclass(frozen=True)
class CallRecord:
    """One HTTP exchange: kind post|poll|redirect, URL without query, status (None: no answer), seconds."""

    kind: str
    url: str
    status: int | None
    seconds: float
    error: str = ""

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class AgentResult:
    """What the agent gave for one task. With `ok`, `archive` holds zip or tar bytes (`kind` zip|tar|json;
    a JSON answer is already turned into a zip). Without, `reason` says why."""

    ok: bool
    kind: str = ""
    archive: bytes = b""
    http_status: int | None = None
    attempts: int = 0
    seconds: float = 0.0
    response_bytes: int = 0
    reason: str = ""
    calls: list[CallRecord] = field(default_factory=list)


class _Failure(Exception):
    """The call is over without a usable answer (the reason is user-facing)."""


class _Retryable(Exception):
    """A connection error or a 5xx answer: worth another try."""

    def __init__(self, reason: str, status: int | None = None):
        super().__init__(reason)
        self.status = status


@dataclass
class _Reply:
    status: int
    headers: httpx.Headers
    body: bytes
    url: str


def _shown(url: str) -> str:
    """The URL without user info, query or fragment (for logs and the generation log)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = f"[{host}]" if ":" in host else host
    if parts.port:
        netloc += f":{parts.port}"
    return f"{parts.scheme}://{netloc}{parts.path or '/'}"[:300]


class _Exchange:
    """State of one task's call: deadline, attempts, the log of HTTP exchanges."""

    def __init__(self, *, url: str, secret: str, limits: AgentLimits, user_agent: str, request_id: str,
                 resolver, sleep):
        self.url, self.secret, self.limits = url, secret, limits
        self.user_agent, self.request_id = user_agent, request_id
        self.resolver, self.sleep = resolver, sleep
        self.start = time.monotonic()
        self.deadline = self.start + limits.deadline
        self.calls: list[CallRecord] = []
        self.attempts = 0
        self.response_bytes = 0
        self.origin: tuple[str, str, int] | None = None

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def _record(self, kind: str, url: str, status: int | None, seconds: float, error: str = "") -> None:
        self.calls.append(CallRecord(kind, _shown(url), status, round(seconds, 3), error[:200]))
        if len(self.calls) > _MAX_LOGGED_CALLS:
            del self.calls[20]  # keep the first calls and the latest ones
        log.info("agent call %s %s -> %s in %.3f s%s", kind, _shown(url), status if status else "no answer",
                 seconds, f" ({error[:200]})" if error else "")

    # --- one hop ----------------------------------------------------------------------------
    def _headers(self, target: Target, has_body: bool) -> dict[str, str]:
        default_port = 443 if target.scheme == "https" else 80
        host = f"[{target.host}]" if ":" in target.host else target.host
        headers = {"Host": host if target.port == default_port else f"{host}:{target.port}",
                   "User-Agent": self.user_agent, "Accept-Encoding": "identity",
                   "Accept": "application/zip, application/gzip, application/x-tar, application/json"}
        if self.request_id:
            headers["X-Request-Id"] = self.request_id
        if has_body:
            headers["Content-Type"] = "application/json"
        if self.secret and target.origin == self.origin:
            headers["Authorization"] = f"Bearer {self.secret}"
        return headers

    def _read(self, response: httpx.Response) -> bytes:
        """The answer's body as sent on the wire, at most `max_bytes` of it, never decoded: an answer with a
        Content-Encoding other than identity is refused before its body is read (we ask for identity; httpx would
        otherwise inflate any declared encoding, stacked ones too, with no limit on what it makes of a few bytes)."""
        encodings = [e.strip().lower() for e in response.headers.get_list("content-encoding", split_commas=True)]
        if any(e and e != "identity" for e in encodings):
            declared = ", ".join(e for e in encodings if e)[:60]
            raise _Failure(f"the answer declares Content-Encoding: {declared}; the platform asks for identity "
                           "(Accept-Encoding: identity) and refuses compressed answers: send the zip or tar.gz as "
                           "the body itself")
        declared = response.headers.get("content-length", "")
        if declared.isascii() and declared.isdigit() and int(declared) > self.limits.max_bytes:
            raise _Failure(f"the answer is {declared} bytes, over the limit of {self.limits.max_bytes} bytes")
        chunks, total = [], 0
        for chunk in response.iter_raw():
            total += len(chunk)
            if total > self.limits.max_bytes:
                raise _Failure(f"the answer is over the limit of {self.limits.max_bytes} bytes")
            if self.remaining() <= 0:
                raise _Failure(f"the answer was not complete within the deadline of {self.limits.deadline:g} s")
            chunks.append(chunk)
        self.response_bytes = total
        return b"".join(chunks)

    def _send(self, method: str, target: Target, body: bytes | None, kind: str) -> _Reply:
        remaining = self.remaining()
        if remaining <= 0:
            raise _Failure(f"no answer within the deadline of {self.limits.deadline:g} s")
        timeout = httpx.Timeout(connect=min(self.limits.connect_timeout, remaining), read=remaining,
                                write=remaining, pool=remaining)
        pinned = httpx.URL(target.url).copy_with(host=target.address, port=target.port)
        extensions = {"sni_hostname": target.host} if target.scheme == "https" else {}
        t0 = time.monotonic()
        try:
            with httpx.Client(trust_env=False, follow_redirects=False, timeout=timeout) as client:
                request = client.build_request(method, pinned, headers=self._headers(target, body is not None),
                                               content=body, extensions=extensions)
                response = client.send(request, stream=True)
                try:
                    data = self._read(response)
                finally:
                    response.close()
        except _Failure as exc:
            self._record(kind, target.url, None, time.monotonic() - t0, str(exc))
            raise
        except httpx.ConnectTimeout as exc:
            self._record(kind, target.url, None, time.monotonic() - t0, "connect timeout")
            raise _Retryable("the connection timed out") from exc
        except httpx.TimeoutException as exc:
            self._record(kind, target.url, None, time.monotonic() - t0, "read timeout")
            raise _Failure(f"no answer within the deadline of {self.limits.deadline:g} s") from exc
        except httpx.NetworkError as exc:
            self._record(kind, target.url, None, time.monotonic() - t0, f"connection error: {type(exc).__name__}")
            raise _Retryable(f"connection error ({type(exc).__name__}: {str(exc)[:120]})") from exc
        except httpx.HTTPError as exc:
            self._record(kind, target.url, None, time.monotonic() - t0, f"invalid answer: {type(exc).__name__}")
            raise _Failure(f"the answer is not valid HTTP ({type(exc).__name__})") from exc
        self._record(kind, target.url, response.status_code, time.monotonic() - t0)
        return _Reply(response.status_code, response.headers, data, target.url)

    def _check(self, url: str) -> Target:
        try:
            return check_url(url, allowed_networks=self.limits.allowed_networks, resolver=self.resolver)
        except UrlRefused as exc:
            raise _Failure(f"refused to call {_shown(url)}: {exc}") from exc

    def _redirect_allowed(self, target: Target, first: Target) -> bool:
        ip = ipaddress.ip_address(target.address)
        if address_problem(ip) is None or (target.address, target.port) == (first.address, first.port):
            return True
        return any(a.port == target.port and a.admits(ip, target.port) for a in self.limits.allowed_networks)

    def request(self, method: str, url: str, body: bytes | None, kind: str) -> _Reply:
        """One request with redirects followed by hand; every hop is checked, and a redirect to a non-public
        address is followed only back to the endpoint's own address and port or to a pair AGENT_ALLOWED_NETWORKS
        names with its port (never into the site or another local service where a whole network is open).
        5xx raises _Retryable."""
        first = None
        for hop in range(self.limits.max_redirects + 1):
            target = self._check(url)
            first = first or target
            if hop and not self._redirect_allowed(target, first):
                raise _Failure(f"refused to follow a redirect to {_shown(url)}: a redirect may lead to a non-public "
                               "address only back to the endpoint itself or to an address:port pair "
                               "AGENT_ALLOWED_NETWORKS names")
            reply = self._send(method, target, body, kind if hop == 0 else "redirect")
            if reply.status in _REDIRECTS and reply.headers.get("location"):
                url = urljoin(url, reply.headers["location"])
                if reply.status in (301, 302, 303):
                    method, body = "GET", None
                continue
            if reply.status >= 500:
                raise _Retryable(f"HTTP {reply.status}", reply.status)
            return reply
        raise _Failure(f"more than {self.limits.max_redirects} redirects")

    def with_retries(self, method: str, url: str, body: bytes | None, kind: str) -> _Reply:
        """`request` with tenacity retries on _Retryable, within the deadline."""
        def count(_state) -> None:
            if kind == "post":
                self.attempts += 1

        retrying = Retrying(
            stop=stop_after_attempt(max(self.limits.attempts, 1)) | (lambda _state: self.remaining() <= 0),
            wait=wait_exponential(multiplier=self.limits.backoff, max=30),
            retry=retry_if_exception_type(_Retryable), reraise=True, before=count,
            sleep=lambda seconds: self.sleep(max(0.0, min(seconds, self.remaining()))))
        try:
            return retrying(self.request, method, url, body, kind)
        except _Retryable as exc:
            tries = retrying.statistics.get("attempt_number", 1)
            raise _Failure(f"{exc} after {tries} {'try' if tries == 1 else 'tries'}") from exc

    # --- the whole call -----------------------------------------------------------------------
    def _poll_wait(self, headers: httpx.Headers) -> float:
        value = headers.get("retry-after", "")
        wait = float(value) if value.isascii() and value.replace(".", "", 1).isdigit() else self.limits.poll_interval
        return min(max(wait, 0.05), 60.0)

    def run(self, payload: dict) -> tuple[_Reply, str, bytes]:
        self.origin = self._check(self.url).origin
        body = json.dumps(payload).encode()
        reply = self.with_retries("POST", self.url, body, "post")
        while reply.status == 202:
            location = reply.headers.get("location")
            if not location:
                raise _Failure("the agent answered 202 without a Location header to poll")
            url = urljoin(reply.url, location)
            wait = self._poll_wait(reply.headers)
            if self.remaining() <= wait:
                raise _Failure(f"the agent was still working (202) when the deadline of "
                               f"{self.limits.deadline:g} s passed")
            self.sleep(wait)
            reply = self.with_retries("GET", url, None, "poll")
        if reply.status != 200:
            raise _Failure(f"the agent answered HTTP {reply.status} (expected 200 with the repository, or 202)")
        try:
            kind, archive = parse_answer(reply.body, reply.headers.get("content-type", ""))
        except AnswerError as exc:
            raise _Failure(str(exc)) from exc
        return reply, kind, archive


def call_agent(*, url: str, secret: str, payload: dict, limits: AgentLimits, user_agent: str,
               request_id: str = "", resolver=None, sleep=time.sleep) -> AgentResult:
    """POST `payload` to the agent at `url` (Bearer `secret`), poll a 202's Location, return what it gave.

    Never raises for the agent's behaviour: see the module docstring. `resolver` and `sleep` are
    injectable for tests (socket.getaddrinfo's signature; seconds).
    """
    call = _Exchange(url=url, secret=secret, limits=limits, user_agent=user_agent, request_id=request_id,
                     resolver=resolver, sleep=sleep)
    try:
        reply, kind, archive = call.run(payload)
    except _Failure as exc:
        status = call.calls[-1].status if call.calls else None
        return AgentResult(ok=False, http_status=status, attempts=call.attempts,
                           seconds=round(time.monotonic() - call.start, 3), response_bytes=call.response_bytes,
                           reason=_redact(str(exc), secret), calls=_redact_calls(call.calls, secret))
    return AgentResult(ok=True, kind=kind, archive=archive, http_status=reply.status, attempts=call.attempts,
                       seconds=round(time.monotonic() - call.start, 3), response_bytes=len(reply.body),
                       calls=_redact_calls(call.calls, secret))


def _redact(text: str, secret: str) -> str:
    return text.replace(secret, "[secret]") if secret and len(secret) >= 4 else text


def _redact_calls(calls: list[CallRecord], secret: str) -> list[CallRecord]:
    return [CallRecord(c.kind, _redact(c.url, secret), c.status, c.seconds, _redact(c.error, secret)) for c in calls]
