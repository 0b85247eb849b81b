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
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import quote

import httpx

from .paths import Endpoint, fill_params, normalize_path
from .probe_words import ACCESS_WORDS, NEVER_DRAWN, RESOURCE_NAMES, ROUTE_WORDS

#: Statuses meaning "no such route" (docs/scoring.md "API Coverage").
NOT_FOUND_STATUSES = frozenset({404, 405, 501})
#: At most this many bytes of a reply body are read and compared.
MAX_BODY_BYTES = 64 * 1024
#: Headers of every probe request: no compressed bodies (a body is read as sent, never decoded: red team round 12
#: sent `Content-Encoding: gzip, gzip` replies that grew 5 KB into 3 GiB of the worker's memory), and the
#: User-Agent of the Python suites' HTTP client rather than one naming the probe's.
PROBE_HEADERS = {"Accept-Encoding": "identity", "User-Agent": "python-requests/2.32.3"}
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
    FINGERPRINT_ERROR = "fingerprint_error"  # no reply to the unknown path (refused, reset, closed): not implemented
    FINGERPRINT_TIMEOUT = "fingerprint_timeout"  # the service stalled on an unknown path: not implemented
    UNSTABLE_404 = "unstable_404"  # unknown paths got 404s with different bodies; so did the endpoint: not implemented
    BUDGET_EXHAUSTED = "budget_exhausted"  # the service used up the probe's time budget first: not implemented

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class ProbeObservation:
    """What was seen for one endpoint: statuses (None when not requested or no reply) and the reason."""

    implemented: bool
    reason: Reason
    endpoint_status: int | None
    fingerprint_status: int | None


@dataclass(frozen=True)
class ProbeResult:
    """`results`: endpoint -> True (implemented) / False (not); the probe decides every endpoint it is given.
    `observations`: the same keys with statuses and reasons, for the task report."""

    results: dict[Endpoint, bool]
    observations: dict[Endpoint, ProbeObservation]


@dataclass(frozen=True)
class _Reply:
    status: int
    body: str


def probe_endpoints(*, base_url: str, endpoints: list[Endpoint], timeout: float = 5.0,
                    budget: float | None = None, vocabulary: Sequence[str] = ()) -> ProbeResult:
    """Probe each endpoint of the service at `base_url` (e.g. `"http://127.0.0.1:8083"`), per docs/scoring.md
    "API Coverage".

    For each endpoint (method M, normalised path P):
    1. fingerprint: M on UNKNOWN_PATHS unknown paths that look like P (`_lookalike_paths`: the segments that name
       an endpoint, its last literal one among them, replaced by words drawn at random from `vocabulary`, one
       substitution for the whole probe; case, separators, depth, parameters and trailing slash kept:
       `/api/todos/1` -> `/api/invoices/1`; random letters of the same length when `vocabulary` is empty). The requests of every endpoint (its look-alikes and its own) go one at a time in a
       random order over the whole probe, so a service can tell them apart from P only by knowing P's route: a
       guess by order (red team round 9: the fixed order look-alike, endpoint, look-alike was counted, AC 6/6 for
       no route), by which segment reads like a word, by which path comes again for another method or as another
       path's parent (red team round 10) earns an endpoint with chance 1 / (UNKNOWN_PATHS + 1) at best. No reply
       at all (the connection refused, reset or closed) -> not implemented (`fingerprint_error`: the probe runs
       only once the service answered its start check, so a service that drops the probe's connections, or
       quits, is up and serves nothing, and no static check credits its route code: red team round 7); connected
       but no answer in time -> not implemented (`fingerprint_timeout`). When the replies differ: all 404 -> only
       a status other than 404/405/501 counts for the endpoint (`unstable_404`); otherwise the service answers
       anything, differently, and nothing is implemented (`catch_all_unstable`). A stable reply other than 404 is
       a catch-all: the endpoint is implemented only when its reply differs from it (`catch_all_differs`, else
       `catch_all`), so dead route code behind a catch-all earns nothing. `vocabulary` is `lookalike_vocabulary`
       of the task's README: resource names a service cannot tell from route names without knowing the routes.
    2. endpoint: M on P with every parameter filled with `1`, JSON body `{}` for POST/PUT/PATCH, no auth,
       redirects not followed. Implemented when the status is not 404/405/501, or it is 404 with a body that
       differs from the fingerprint's. Bodies are compared after replacing the requested path (and the
       look-alike's words, or the endpoint's own words they replace) with a placeholder and masking timestamps,
       UUIDs and long digit runs, so a "no such route" page that echoes the path, the resource or the time
       (Express, Spring) still compares equal. No answer in time -> False.
    3. when step 2 found nothing and P does not end in `/`, P + `/` is tried against every look-alike + `/` the
       same way (READMEs such as Django's declare trailing slashes that normalisation drops); only a
       non-redirect answer counts there, and nothing when the slashed look-alikes answer differently.
    `timeout` is the wall-clock limit in seconds of each request, whatever the service trickles; `budget` (seconds,
    None: unlimited) bounds the whole probe, each request getting at most what is left of it: endpoints not
    reached in time are not implemented (`budget_exhausted`; a service that slow earns no coverage for them).
    Environment proxies are ignored.
    Returns a ProbeResult with every endpoint as a key, each True or False. Raises nothing for service
    misbehaviour.
    """
    return asyncio.run(_probe_all(base_url=base_url, endpoints=endpoints, timeout=timeout, budget=budget,
                                  vocabulary=tuple(vocabulary)))


async def _probe_all(*, base_url: str, endpoints: list[Endpoint], timeout: float,
                     budget: float | None, vocabulary: tuple[str, ...]) -> ProbeResult:
    observations: dict[Endpoint, ProbeObservation] = {}
    async with httpx.AsyncClient(
        base_url=base_url, timeout=timeout, follow_redirects=False, trust_env=False, headers=PROBE_HEADERS
    ) as client:
        deadline = None if budget is None else time.monotonic() + budget

        def limit() -> float:  # no request outlasts the budget: each gets at most what is left of it (<= 0: none)
            if deadline is None:
                return timeout
            left = deadline - time.monotonic()
            return left if left <= 0 else max(0.05, min(timeout, left))

        lookalikes = _lookalike_paths(sorted({concrete_path(e) for e in endpoints}), vocabulary)
        plans = [_Plan(endpoint, lookalikes[concrete_path(endpoint)]) for endpoint in endpoints]
        await _send_shuffled(client, [(plan, kind) for plan in plans for kind in (*_UNKNOWN_KINDS, "ep")], limit)
        retries = [plan for plan in plans if plan.wants_slashed_retry()]
        await _send_shuffled(client, [(plan, kind) for plan in retries for kind in (*_SLASHED_KINDS, "sep")], limit)
        for plan in plans:
            observations[plan.endpoint] = plan.observation()
    return ProbeResult({e: o.implemented for e, o in observations.items()}, observations)


async def _send_shuffled(client: httpx.AsyncClient, requests: list[tuple["_Plan", str]], limit) -> None:
    """Send `requests` (plan, kind) one at a time in a random order over all endpoints (red team round 9: with a
    fixed unknown, endpoint, unknown order per endpoint, a service counting requests answered every third one and
    earned AC 6/6 knowing no route). A plan already decided (one of its requests stalled or got no reply) sends
    nothing more; past the budget nothing is sent."""
    _RANDOM.shuffle(requests)
    for plan, kind in requests:
        if plan.decided_early():
            continue
        timeout = limit()
        if timeout <= 0:
            plan.out_of_budget = True
            continue
        plan.replies[kind] = await _request(client, plan.method, plan.path_of(kind), timeout)


_RANDOM = secrets.SystemRandom()


#: How many look-alike unknown paths fingerprint each endpoint: a service guessing which of an endpoint's requests is
#: its own earns it with chance 1 / (UNKNOWN_PATHS + 1).
UNKNOWN_PATHS = 3
_UNKNOWN_KINDS = tuple(f"u{k}" for k in range(UNKNOWN_PATHS))
_SLASHED_KINDS = tuple(f"s{kind}" for kind in _UNKNOWN_KINDS)


class _Plan:
    """The requests of one endpoint and their replies: UNKNOWN_PATHS look-alike unknown paths (u0, u1, ...), the
    endpoint (ep), and for the slashed retry the same with a trailing slash (su0, su1, ..., sep). `unknown` holds
    (path, new segments...) per look-alike (`_lookalike_paths`)."""

    def __init__(self, endpoint: Endpoint, unknown: tuple[tuple[str, ...], ...]) -> None:
        self.endpoint = endpoint
        self.method = endpoint.method
        self.concrete = concrete_path(endpoint)
        self.unknown = unknown
        #: the endpoint's own segments that its look-alikes replace, masked in its replies as the look-alikes' new
        #: words are in theirs (a "no such route" reply naming the resource asked for, `unknown resource 'todos'`,
        #: differed from every look-alike's: a service knowing no route earned every endpoint)
        own, alike = self.concrete.split("/"), unknown[0][0].split("/") if unknown else []
        self.words = tuple(s for s, a in zip(own, alike) if s != a) if len(own) == len(alike) else ()
        self.replies: dict[str, "_Reply | None"] = {}
        self.out_of_budget = False

    def path_of(self, kind: str) -> str:
        if kind in _UNKNOWN_KINDS:
            return self.unknown[int(kind[1:])][0]
        if kind in _SLASHED_KINDS:
            return self.unknown[int(kind[2:])][0] + "/"
        return {"ep": self.concrete, "sep": self.concrete + "/"}[kind]

    def decided_early(self) -> bool:
        """True when a request already decided the endpoint (no reply, or a stall: not implemented)."""
        return any(r is None or r is _STALLED for r in self.replies.values())

    def wants_slashed_retry(self) -> bool:
        """True when the endpoint's own path answered a 404 that is the service's "no such route" (before any
        slashed request: the decision `observation` gives then) and a slashed form is worth a try."""
        decided = self.observation()
        return (decided.reason is Reason.NOT_FOUND and decided.endpoint_status == 404
                and not self.concrete.endswith("/"))

    def observation(self) -> ProbeObservation:
        """The decision of `probe_endpoints` from the replies gathered."""
        for kind in _UNKNOWN_KINDS:
            unknown = self.replies.get(kind, _NOT_SENT)
            if unknown is None:
                return ProbeObservation(False, Reason.FINGERPRINT_ERROR, None, None)
            if unknown is _STALLED:
                return ProbeObservation(False, Reason.FINGERPRINT_TIMEOUT, None, None)
        reply = self.replies.get("ep", _NOT_SENT)
        if reply is None or reply is _STALLED:
            return ProbeObservation(False, Reason.ENDPOINT_ERROR, None, None)
        if self.out_of_budget or any(k not in self.replies for k in (*_UNKNOWN_KINDS, "ep")):
            return ProbeObservation(False, Reason.BUDGET_EXHAUSTED, None, None)
        fingerprint = _fingerprint_of([self.replies[k] for k in _UNKNOWN_KINDS], self.unknown)
        if fingerprint is _UNSTABLE:  # unknown paths answer anything, differently: nothing can be told apart
            return ProbeObservation(False, Reason.CATCH_ALL_UNSTABLE, reply.status, None)
        if fingerprint is _UNSTABLE_404:  # no stable "no such route" body: only a route's status counts
            if reply.status in NOT_FOUND_STATUSES:
                return ProbeObservation(False, Reason.UNSTABLE_404, reply.status, 404)
            return ProbeObservation(True, Reason.STATUS, reply.status, 404)
        if fingerprint.status != 404:
            same = reply.status == fingerprint.status and _shape(reply.body, self.concrete, self.words) == \
                fingerprint.body
            return ProbeObservation(not same, Reason.CATCH_ALL if same else Reason.CATCH_ALL_DIFFERS, reply.status,
                                    fingerprint.status)
        decision = _decide(reply, self.concrete, self.words, fingerprint)
        slashed_unknown = [self.replies.get(kind) for kind in _SLASHED_KINDS]
        slashed = self.replies.get("sep")
        if decision is Reason.NOT_FOUND and all(isinstance(r, _Reply) and r is not _STALLED
                                                for r in (*slashed_unknown, slashed)) \
                and not 300 <= slashed.status < 400:
            # the slashed form against the slashed look-alikes: a service answering every slashed path earns nothing
            base = _fingerprint_of(slashed_unknown, [(path + "/", *words) for path, *words in self.unknown])
            if base is _UNSTABLE or base is _UNSTABLE_404:
                retry = Reason.NOT_FOUND
            elif base.status == 404:
                retry = _decide(slashed, self.concrete + "/", self.words, base)
            else:
                same = slashed.status == base.status and \
                    _shape(slashed.body, self.concrete + "/", self.words) == base.body
                retry = Reason.NOT_FOUND if same else Reason.STATUS
            if retry is not Reason.NOT_FOUND:
                return ProbeObservation(True, retry, slashed.status, fingerprint.status)
        return ProbeObservation(decision is not Reason.NOT_FOUND, decision, reply.status, fingerprint.status)


def _lookalike_paths(concretes: list[str], vocabulary: tuple[str, ...]) -> dict[str, tuple[tuple[str, ...], ...]]:
    """For each of `concretes` (filled, normalised endpoint paths), UNKNOWN_PATHS look-alikes: (path, its new
    segments...) each.

    One substitution serves the whole probe, so no request stands out by what it shares with the others (red team
    round 10: a path requested for two methods, or a word met again as another path's parent, marked the real
    routes). A literal segment is replaced where it ends an endpoint's path up to that endpoint's last literal
    segment (`/api/todos` for `/api/todos/1`): every path's last literal segment, and a parent segment that names
    an endpoint of its own (`todos` in `/api/todos/1/tags` when `/api/todos` is declared too); a word replaced
    somewhere is replaced wherever it stands; other segments (a shared `/api`) are kept, so look-alikes reach the
    same router. Each distinct segment gets UNKNOWN_PATHS alternatives (`_lookalike_segment`), and each path's
    look-alikes take each alternative of each of its replaced segments once, paired at random per path. So a path
    requested for several methods has the same look-alikes for each, and a word's alternatives stand wherever the
    word stands, as often as the word. Parameters, depth and trailing slash are kept. A path with no literal
    segment (`/`, `/{id}`) cannot be disguised: its look-alikes get an alternative of an empty word in front."""
    split = {c: c.split("/") for c in concretes}
    literal = lambda seg: bool(seg) and seg != "1"  # noqa: E731 - a filled parameter is "1"
    places = {c: [k for k, seg in enumerate(segs) if literal(seg)] for c, segs in split.items()}
    #: each path up to its last literal segment: a segment ending such a prefix in any path names an endpoint
    endpoint_prefixes = {"/".join(segs[:places[c][-1] + 1]) for c, segs in split.items() if places[c]}
    alternatives: dict[str, tuple[str, ...]] = {}
    split_words = {seg for segs in split.values() for seg in segs}
    used: set[str] = set()

    def alternatives_of(segment: str) -> tuple[str, ...]:
        if segment not in alternatives:
            made: list[str] = []
            for attempt in range(UNKNOWN_PATHS * 20):
                word = _lookalike_segment(segment or "x" * (6 + secrets.randbelow(3)),
                                          vocabulary if attempt < UNKNOWN_PATHS * 10 else (), used)
                if word not in used and word not in split_words:  # a word stands for one segment only
                    made.append(word)
                    used.update({word, *(t.lower() for t in _TOKENS.findall(word) if t.isalpha())})
                if len(made) == UNKNOWN_PATHS:
                    break
            while len(made) < UNKNOWN_PATHS:  # words of its length ran out (a dozen one-letter segments): longer
                word = "".join(secrets.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(len(segment) + 3))
                if word not in used and word not in split_words:
                    made.append(word)
                    used.add(word)
            alternatives[segment] = tuple(made)
        return alternatives[segment]

    result = {}
    #: a word replaced somewhere is replaced everywhere (red team round 11: `users` kept in the look-alikes of
    #: `/api/admin/users/1/ban` marked `/api/users/1` as real)
    replaced_words = {segs[k] for c, segs in split.items() for k in places[c]
                      if "/".join(segs[:k + 1]) in endpoint_prefixes}
    for concrete, segs in split.items():
        replaced = [k for k in places[concrete] if segs[k] in replaced_words]
        order = {k: _RANDOM.sample(range(UNKNOWN_PATHS), UNKNOWN_PATHS) for k in replaced}
        paths = []
        for i in range(UNKNOWN_PATHS):
            if not replaced:  # "/" or "/1": a word in front
                word = alternatives_of("")[i]
                slash = "/" if concrete.endswith("/") and concrete != "/" else ""
                paths.append(("/" + word + concrete.rstrip("/") + slash, word))
                continue
            new = list(segs)
            for k in replaced:
                new[k] = alternatives_of(segs[k])[order[k][i]]
            paths.append(("/".join(new), *(new[k] for k in replaced)))
        result[concrete] = tuple(paths)
    return result


def concrete_path(endpoint: Endpoint) -> str:
    """The path the probe requests for `endpoint`: normalised, every parameter filled with `1`."""
    return fill_params(normalize_path(endpoint.path))


_TOKENS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+|[^A-Za-z\d]+")


def _lookalike_segment(segment: str, vocabulary: tuple[str, ...], exclude: frozenset[str] | set[str] = frozenset()
                       ) -> str:
    """`segment` with each word replaced by `_word_like` and each digit by a random digit; separators and the case
    of each word (lower, Capitalised, UPPER: camelCase stays camelCase) kept. Never `segment` itself."""
    parts = []
    for token in _TOKENS.findall(segment):
        if token.isalpha():
            parts.append(_styled(_word_like(token.lower(), vocabulary, exclude), token))
        elif token.isdigit():
            parts.append("".join(secrets.choice("0123456789") for _ in token))
        else:
            parts.append(token)
    made = "".join(parts)
    return made if made != segment else made + secrets.choice(_LETTERS)


def _word_like(word: str, vocabulary: tuple[str, ...], exclude: frozenset[str] | set[str] = frozenset()) -> str:
    """A word of `vocabulary` other than `word`, drawn at random from `word`'s own pool (`_pool`: a resource name
    for a resource name, and so on, so that no published list tells them apart; another pool's word only when its
    own has none left), preferring (when at least 5 words qualify) one about as long
    (within 2 letters) and then one with the same last letter (a plural stays a plural); random letters as long as
    `word` when `vocabulary` has no other word outside `exclude`."""
    candidates = [w for w in vocabulary if w != word and w not in exclude]
    own_pool = [w for w in candidates if _pool(w) is _pool(word)]
    candidates = own_pool or candidates
    if not candidates:
        return "".join(secrets.choice(_LETTERS) for _ in word)
    for alike in (lambda w: abs(len(w) - len(word)) <= 2, lambda w: w[-1] == word[-1]):
        narrower = [w for w in candidates if alike(w)]
        candidates = narrower if len(narrower) >= 5 else candidates
    return _RANDOM.choice(candidates)


def _pool(word: str) -> frozenset[str]:
    """The look-alike pool of a lower-case `word` (probe_words): RESOURCE_NAMES or ACCESS_WORDS when it is one of
    them, else ROUTE_WORDS."""
    return next((pool for pool in (RESOURCE_NAMES, ACCESS_WORDS) if word in pool), ROUTE_WORDS)


def _styled(word: str, like: str) -> str:
    """`word` in the case of `like`: UPPER, Capitalised or lower."""
    if len(like) > 1 and like.isupper():
        return word.upper()
    return word.capitalize() if like[0].isupper() else word


def lookalike_vocabulary(text: str, endpoints: list[Endpoint]) -> tuple[str, ...]:
    """Words for the probe's look-alike paths: `probe_words.RESOURCE_NAMES` (resource names as web APIs use them),
    ROUTE_WORDS and ACCESS_WORDS (the other words route names are made of) but NEVER_DRAWN, minus every word
    of the task's README `text` and of the declared endpoints' paths, in singular and plural, sorted. A look-alike
    then reads like a route name to a service that knows no route, is drawn from the same list as the word it
    replaces (`_word_like`), yet hardly ever names a route the service serves without declaring it
    (docs/scoring.md "API Coverage")."""
    taken = _word_forms(text + " " + " ".join(e.path for e in endpoints))
    return tuple(sorted((RESOURCE_NAMES | ROUTE_WORDS | ACCESS_WORDS) - NEVER_DRAWN - taken))


def _word_forms(text: str) -> set[str]:
    """The lower-case words of `text` (camelCase split) with their simple singular and plural forms."""
    forms = set()
    for word in (w.lower() for w in _TOKENS.findall(text) if w.isalpha()):
        forms |= {word, word + "s", word + "es", word[:-1] + "ies"}
        if word.endswith("s"):
            forms |= {word[:-1], word[:-2], word[:-3] + "y"}
    return forms


_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _fingerprint_of(replies: list["_Reply"], unknown) -> "_Reply":
    """The "no such route" reply from the look-alike unknown paths: the shaped reply when they all agree, else
    `_UNSTABLE_404` (all 404) or `_UNSTABLE`."""
    shaped = [_Reply(r.status, _shape(r.body, path, tuple(words))) for r, (path, *words) in zip(replies, unknown)]
    if all(r == shaped[0] for r in shaped):
        return shaped[0]
    return _UNSTABLE_404 if all(r.status == 404 for r in shaped) else _UNSTABLE


#: The fingerprint of a service whose unknown paths answer differently from each other.
_UNSTABLE = _Reply(0, "")
#: ... whose unknown paths all answer 404, with bodies that differ (a request id, say): only statuses can tell.
_UNSTABLE_404 = _Reply(404, "\x00unstable\x00")
#: What `_request` returns when the service accepted the connection but did not answer within the time limit.
_STALLED = _Reply(-1, "")
#: A request a plan has not sent (yet).
_NOT_SENT = _Reply(-2, "")


def _decide(reply: _Reply, path: str, words: tuple[str, ...], fingerprint: _Reply) -> Reason:
    if reply.status not in NOT_FOUND_STATUSES:
        return Reason.STATUS
    if reply.status == 404 and _shape(reply.body, path, words) != fingerprint.body:
        return Reason.BODY_DIFFERS
    return Reason.NOT_FOUND


async def _request(client: httpx.AsyncClient, method: str, path: str, timeout: float) -> _Reply | None:
    """One request, within `timeout` seconds of wall-clock time in all (connecting, the status line and headers, the
    body), so a service that trickles one byte at a time cannot stretch it (issue 15, escape 8); at most
    MAX_BODY_BYTES of the body, as sent: a Content-Encoding is never decoded (a compressed reply is compared by its
    compressed bytes). A reply whose body is cut by the deadline keeps what arrived. None on a connection
    error, `_STALLED` when the connection was made but no status and headers arrived in time."""
    kwargs: dict[str, object] = {"json": {}} if method in BODY_METHODS else {}
    status: int | None = None
    chunks: list[bytes] = []
    try:
        async with asyncio.timeout(timeout):
            async with client.stream(method, path, **kwargs) as response:
                status = response.status_code
                size = 0
                async for chunk in response.aiter_raw():
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


def _shape(body: str, path: str, words: tuple[str, ...]) -> str:
    """The parts of a reply body that identify a "no such route" page (see `probe_endpoints`): `path` and
    `words` (a look-alike's new segments, or the endpoint's own that they replace) masked where they stand
    alone (`me`, not in `message`), volatile parts masked, white space collapsed."""
    for variant in sorted({path, quote(path), path.rstrip("/")}, key=len, reverse=True):
        if len(variant) < 2:
            continue
        body = body.replace(variant, "\x00path\x00")
    for word in sorted(words, key=len, reverse=True):
        if len(word) >= 2:
            body = re.sub(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])", "\x00token\x00", body)
    for pattern in _VOLATILE:
        body = pattern.sub("\x00v\x00", body)
    return " ".join(body.split())
