"""The dynamic probe of docs/scoring.md "API Coverage" against real HTTP servers on 127.0.0.1."""
from __future__ import annotations

import json
import re
import socket
import time
from pathlib import Path
from datetime import datetime, timezone

import pytest

from core.grading.paths import Endpoint
from core.grading.probe import UNKNOWN_PATHS, Reason, lookalike_vocabulary, probe_endpoints

E = Endpoint.of


def json_reply(status: int, payload: object) -> tuple[int, str, bytes]:
    return status, "application/json", json.dumps(payload).encode()


def routed_app(method: str, path: str, body: bytes):
    """A small REST service: real routes, 405 for a known path with the wrong method, JSON 404 otherwise."""
    items = {"1": {"id": 1, "name": "one"}}
    if path == "/health" and method == "GET":
        return json_reply(200, {"status": "ok"})
    if path == "/api/items":
        if method == "GET":
            return json_reply(200, list(items.values()))
        if method == "POST":
            data = json.loads(body or b"{}")
            return json_reply(400 if "name" not in data else 201, {"error": "name required"})
        return json_reply(405, {"detail": "Method Not Allowed"})
    m = re.fullmatch(r"/api/items/(\w+)", path)
    if m:
        if method == "GET":
            return json_reply(200, items[m.group(1)]) if m.group(1) in items else json_reply(404, {"error": "no item"})
        if method == "DELETE":
            return 204, "application/json", b""
        return json_reply(405, {"detail": "Method Not Allowed"})
    if path == "/old":
        return 302, "text/plain", b"moved", {"Location": "/redirected"}
    return json_reply(404, {"detail": "Not Found"})


def test_real_routes_are_found_and_missing_ones_are_not(serve):
    server = serve(routed_app)
    endpoints = [
        E("GET", "/health"),
        E("GET", "/api/items"),
        E("POST", "/api/items"),  # answers 400 to the empty JSON body: the route exists
        E("GET", "/api/items/{id}"),
        E("DELETE", "/api/items/<int:id>"),
        E("PUT", "/api/items/{id}"),  # 405: path known, method not
        E("GET", "/api/orders"),  # 404 with the "no such route" body
        E("PATCH", "/api/items"),  # 405
        E("GET", "/old"),  # a redirect is an answer; it is not followed
    ]
    result = probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=2)
    assert result.results == {
        E("GET", "/health"): True,
        E("GET", "/api/items"): True,
        E("POST", "/api/items"): True,
        E("GET", "/api/items/{id}"): True,
        E("DELETE", "/api/items/{id}"): True,
        E("PUT", "/api/items/{id}"): False,
        E("GET", "/api/orders"): False,
        E("PATCH", "/api/items"): False,
        E("GET", "/old"): True,
    }
    assert result.observations[E("PUT", "/api/items/{id}")].endpoint_status == 405
    assert result.observations[E("GET", "/api/orders")].reason is Reason.NOT_FOUND
    assert result.observations[E("GET", "/old")].endpoint_status == 302

    seen = server.requests
    # parameters filled with 1; JSON {} for POST; no auth header would ever be sent by the probe
    assert ("GET", "/api/items/1", b"") in seen
    assert ("POST", "/api/items", b"{}") in seen
    assert not any(path == "/redirected" for _, path, _ in seen)
    # fingerprints: UNKNOWN_PATHS random route-like words under the endpoint's first segment, or the root for one-segment
    # paths, requested once per (method, prefix)
    fingerprint_paths = [p for _, p, _ in seen if re.fullmatch(r"(/api)?/[a-z]{6,12}", p) and p not in
                         ("/health", "/api/items", "/api/orders")]
    assert any(p.startswith("/api/") for p in fingerprint_paths)
    assert any(re.fullmatch(r"/[a-z]{6,12}", p) for p in fingerprint_paths)
    get_api_fingerprints = [m for m, p, _ in seen if m == "GET" and re.fullmatch(r"/api/[a-z]{6,12}", p)
                            and p not in ("/api/items", "/api/orders")]
    assert len(get_api_fingerprints) == UNKNOWN_PATHS


def test_a_catch_all_earns_only_the_endpoints_that_answer_differently(serve):
    def app(method, path, body):
        if path == "/health" and method == "GET":  # the one real route
            return json_reply(200, {"status": "ok"})
        return 200, "text/html", f"<html>app shell for {path}</html>".encode()

    server = serve(app)
    endpoints = [E("GET", "/api/items"), E("POST", "/api/items"), E("GET", "/health")]
    result = probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=2)
    assert result.results == {endpoints[0]: False, endpoints[1]: False, endpoints[2]: True}
    assert [result.observations[e].reason for e in endpoints] == [Reason.CATCH_ALL, Reason.CATCH_ALL,
                                                                  Reason.CATCH_ALL_DIFFERS]
    assert result.observations[endpoints[0]].fingerprint_status == 200


def test_a_catch_all_that_answers_each_unknown_path_differently_earns_nothing(serve):
    import secrets as random_tokens

    server = serve(lambda method, path, body: (200, "application/json",
                                               json.dumps({"ok": True, "n": random_tokens.token_hex(4)}).encode()))
    endpoints = [E("GET", "/api/items"), E("DELETE", "/api/items/{id}"), E("GET", "/health")]
    result = probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=2)
    assert result.results == {e: False for e in endpoints}
    assert {o.reason for o in result.observations.values()} == {Reason.CATCH_ALL_UNSTABLE}


def test_a_404_for_a_missing_item_differs_from_the_route_404(serve):
    def app(method, path, body):
        if re.fullmatch(r"/api/users/\d+", path) and method == "GET":
            return json_reply(404, {"error": "user not found", "id": path.rsplit("/", 1)[1]})
        return json_reply(404, {"detail": "Not Found"})

    server = serve(app)
    endpoints = [E("GET", "/api/users/{id}"), E("DELETE", "/api/users/{id}"), E("GET", "/api/groups/{id}")]
    result = probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=2)
    assert result.results == {endpoints[0]: True, endpoints[1]: False, endpoints[2]: False}
    assert result.observations[endpoints[0]].reason is Reason.BODY_DIFFERS
    assert result.observations[endpoints[0]].endpoint_status == 404


def test_not_found_pages_that_echo_the_path_and_time_still_match(serve):
    """Express ("Cannot GET /x") and Spring ({"timestamp": ..., "path": "/x"}) put the path and the time in 404s."""

    def app(method, path, body):
        if path == "/api/real" and method == "GET":
            return json_reply(200, {"ok": True})
        stamp = datetime.now(timezone.utc).isoformat()
        text = f'{{"timestamp":"{stamp}","status":404,"error":"Not Found","path":"{path}"}} Cannot {method} {path}'
        time.sleep(0.002)  # make sure timestamps differ between requests
        return 404, "application/json", text.encode()

    server = serve(app)
    endpoints = [E("GET", "/api/real"), E("GET", "/api/unreal/{id}"), E("POST", "/api/unreal")]
    result = probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=2)
    assert result.results == {endpoints[0]: True, endpoints[1]: False, endpoints[2]: False}


def test_trailing_slash_routes_are_found(serve):
    def app(method, path, body):
        if path == "/api/v1/movies/":
            return json_reply(401, {"detail": "Authentication credentials were not provided."})
        return 404, "text/html", b"<h1>Not Found</h1>"

    server = serve(app)
    endpoints = [E("GET", "/api/v1/movies/"), E("GET", "/api/v1/books/")]
    result = probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=2)
    assert result.results == {endpoints[0]: True, endpoints[1]: False}
    assert result.observations[endpoints[0]].endpoint_status == 401


def test_timeout_on_the_endpoint_is_not_implemented(serve):
    def app(method, path, body):
        if path == "/api/slow":
            time.sleep(1.0)
            return json_reply(200, {})
        return json_reply(404, {"detail": "Not Found"})

    server = serve(app)
    endpoint = E("GET", "/api/slow")
    started = time.monotonic()
    result = probe_endpoints(base_url=server.base_url, endpoints=[endpoint], timeout=0.3)
    assert time.monotonic() - started < 0.9
    assert result.results == {endpoint: False}
    assert result.observations[endpoint].reason is Reason.ENDPOINT_ERROR


def test_a_service_that_stalls_on_unknown_paths_earns_nothing(serve):
    """A stall on the probe's unknown paths used to make the probe inconclusive, handing the endpoint to the static
    check (where dead route code earns it): a service that is up but does not answer is not implementing it."""
    def app(method, path, body):
        if path != "/api/items":
            time.sleep(1.0)
        return json_reply(200, {"items": []})

    server = serve(app)
    endpoint = E("GET", "/api/items")
    result = probe_endpoints(base_url=server.base_url, endpoints=[endpoint], timeout=0.3)
    assert result.results == {endpoint: False}
    assert result.observations[endpoint].reason is Reason.FINGERPRINT_TIMEOUT


def test_a_404_everywhere_with_a_varying_body_earns_nothing(serve):
    import secrets as random_tokens

    server = serve(lambda method, path, body: json_reply(404, {"error": "not found",
                                                               "request": random_tokens.token_hex(4)}))
    endpoints = [E("GET", "/api/todos"), E("POST", "/api/todos"), E("DELETE", "/api/todos/{id}")]
    result = probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=2)
    assert result.results == {e: False for e in endpoints}
    assert {o.reason for o in result.observations.values()} == {Reason.UNSTABLE_404}


def test_a_varying_404_still_credits_routes_that_answer(serve):
    import secrets as random_tokens

    def app(method, path, body):
        if path == "/api/todos" and method == "GET":
            return json_reply(200, [])
        return json_reply(404, {"error": "not found", "request": random_tokens.token_hex(4)})

    server = serve(app)
    endpoints = [E("GET", "/api/todos"), E("POST", "/api/todos")]
    result = probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=2)
    assert result.results == {endpoints[0]: True, endpoints[1]: False}


def test_the_unknown_paths_look_like_the_endpoint_and_come_in_a_random_order(serve, monkeypatch):
    import random

    from core.grading import probe

    server = serve(routed_app)
    positions = set()
    for seed in range(16):
        monkeypatch.setattr(probe, "_RANDOM", random.Random(seed))
        server.requests.clear()
        probe_endpoints(base_url=server.base_url, endpoints=[E("GET", "/api/items/{id}")], timeout=2)
        paths = [path for _, path, _ in server.requests]
        assert len(paths) == UNKNOWN_PATHS + 1 and paths.count("/api/items/1") == 1
        assert all(re.fullmatch(r"/api/[a-z]{5}/1", p) for p in paths if p != "/api/items/1"), paths
        positions.add(paths.index("/api/items/1"))
    assert positions == set(range(UNKNOWN_PATHS + 1))  # the endpoint's own request is not at a fixed place


def test_a_service_that_answers_by_the_probes_path_shape_or_order_earns_nothing(serve, monkeypatch):
    import random

    from core.grading import probe

    """Red-team round 4: 404 for paths shaped like the probe's unknown ones, 200 for everything else (including a
    trailing slash); and a service answering 404 to the first two requests of a prefix, 200 after."""
    shape = re.compile(r"^(/[^/]+)?/[a-z]{6,12}$")
    by_shape = serve(lambda m, p, b: json_reply(404, {"e": 1}) if shape.match(p) else json_reply(200, {}))
    endpoints = [E("GET", "/health"), E("GET", "/api/todos"), E("POST", "/api/todos")]
    shaped = probe_endpoints(base_url=by_shape.base_url, endpoints=endpoints, timeout=2)
    assert shaped.results == {e: False for e in endpoints}, shaped.observations

    seen: dict[str, int] = {}

    def by_order(method, path, body):
        key = method + path.split("/")[1]
        seen[key] = seen.get(key, 0) + 1
        return json_reply(404, {"e": 1}) if seen[key] <= 2 else json_reply(200, {})

    ordered = serve(by_order)
    monkeypatch.setattr(probe, "_RANDOM", random.Random(7))
    result = probe_endpoints(base_url=ordered.base_url, endpoints=endpoints, timeout=2)
    assert sum(result.results.values()) < len(endpoints), result.observations  # a guess, not a rule


def test_a_service_counting_the_probes_requests_earns_a_guess_at_most(serve, monkeypatch):
    """Red team round 9: the probe sent look-alike, endpoint, look-alike for each endpoint in turn, so a service
    answering 200 to every third request after its start check earned AC 6/6 knowing no route. In a random order
    over the whole probe the count guesses (about a third of the endpoints or fewer, by chance)."""
    import random

    from core.grading import probe

    count = [0]

    def counting(method, path, body):
        count[0] += 1
        return json_reply(200, {}) if count[0] % 3 == 2 else json_reply(404, {"error": "not found"})

    server = serve(counting)
    endpoints = [E("GET", f"/api/r{k}") for k in range(12)]
    monkeypatch.setattr(probe, "_RANDOM", random.Random(3))
    result = probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=2)
    assert sum(result.results.values()) <= 6, result.observations


README = """# Todo service
Manage todo items with a title, a priority and a due date. Each item belongs to a project; the owner may archive it.
| Method | Path | Description |
| GET | /api/todos/{id} | one item |
| POST | /api/userProfiles | a profile |
See also `/api/stats` (optional). Errors are JSON objects with a message.
"""


def test_the_lookalike_vocabulary_is_route_words_the_readme_never_mentions():
    from core.grading.probe_words import ACCESS_WORDS, NEVER_DRAWN, RESOURCE_NAMES, ROUTE_WORDS

    endpoints = [E("GET", "/api/todos/{id}"), E("POST", "/api/userProfiles")]

    words = set(lookalike_vocabulary(README, endpoints))

    assert len(words) > 300 and words <= RESOURCE_NAMES | ROUTE_WORDS | ACCESS_WORDS
    assert not words & NEVER_DRAWN and {"login", "token", "search", "upload"} <= words  # every pool has its words
    # the README's words and the declared ones, singular or plural, camelCase split: a service may serve routes
    # named after what its README talks about without declaring them
    assert not {"todo", "todos", "item", "items", "project", "projects", "owner", "owners", "message", "messages",
                "profile", "profiles", "stats"} & words
    assert {"invoices", "tickets", "vehicles"} <= words


def test_lookalikes_are_vocabulary_words_in_the_endpoints_own_style(serve):
    server = serve(routed_app)
    vocabulary = lookalike_vocabulary(README, [])
    endpoints = [E("GET", "/api/todos/{id}"), E("POST", "/api/userProfiles"), E("GET", "/api/task-lists")]

    probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=2, vocabulary=vocabulary)

    paths = {p for _, p, _ in server.requests if not p.endswith("/")} - {"/api/todos/1", "/api/userProfiles",
                                                                      "/api/task-lists"}  # no slashed retries
    assert len(paths) == 3 * UNKNOWN_PATHS
    for path in paths:
        last = [seg for seg in path.split("/") if seg and seg != "1"][-1]
        words = [w.lower() for w in re.findall(r"[A-Z]?[a-z]+", last)]
        assert words and all(w in vocabulary for w in words), path
        assert re.fullmatch(r"/api/[a-z]+/1|/api/[a-z]+[A-Z][a-z]+|/api/[a-z]+-[a-z]+", path), path


def test_a_service_answering_real_words_only_earns_nothing(serve):
    """Red team round 10: look-alikes of random letters let a service that knows no route answer 200 to any path
    whose last segment is a word (a dictionary, or a list of resource names) and 404 to the rest: every endpoint
    counted (129 of 130 on 20 RepoGenesis tasks). Look-alikes that are resource names answer alike, a catch-all:
    nothing is counted."""
    vocabulary = lookalike_vocabulary(README, [])
    dictionary = set(vocabulary) | {"todos", "profiles", "user", "tasks", "lists", "task"}

    def words_only(method, path, body):
        last = [seg for seg in path.split("/") if seg and seg != "1"][-1]
        known = all(w.lower() in dictionary for w in re.findall(r"[A-Z]?[a-z]+", last))
        return json_reply(200, {}) if known else json_reply(404, {"error": "not found"})

    server = serve(words_only)
    endpoints = [E("GET", "/api/todos/{id}"), E("POST", "/api/userProfiles"), E("GET", "/api/task-lists")]
    with_words = probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=2, vocabulary=vocabulary)
    random_letters = probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=2)

    assert with_words.results == {e: False for e in endpoints}, with_words.observations
    assert {o.reason for o in with_words.observations.values()} == {Reason.CATCH_ALL}
    assert random_letters.results == {e: True for e in endpoints}  # what the escape earned before


def test_a_service_remembering_paths_cannot_tell_the_endpoints(serve, monkeypatch):
    """Red team round 10: each endpoint had its own look-alikes, so a path requested for two methods was the real
    one; a service answering 200 to any path it had seen before earned every second method (6 of 12 here, and
    2 of 3 for GET, PUT and DELETE on one path). Look-alikes are shared by the methods of a path now: every
    look-alike comes back as often as the path, and the memory guesses."""
    import random

    from core.grading import probe

    seen: set[str] = set()

    def remembering(method, path, body):
        again = path in seen
        seen.add(path)
        return json_reply(200, {}) if again else json_reply(404, {"error": "not found"})

    server = serve(remembering)
    endpoints = [E(m, f"/api/r{k}") for k in range(6) for m in ("GET", "POST")]
    monkeypatch.setattr(probe, "_RANDOM", random.Random(5))
    result = probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=2)

    requested = [p for _, p, _ in server.requests if not p.endswith("/")]
    assert all(requested.count(p) == 2 for p in requested)  # each path, real or look-alike, once per method
    assert sum(result.results.values()) <= 3, result.observations


def test_lookalike_words_come_as_often_as_the_words_they_stand_for():
    """No request stands out by what it shares with the others: a parent segment that names an endpoint of its
    own is replaced in its children's look-alikes too (red team round 10: `/api/todos` was told apart because
    `todos` came back in every look-alike of `/api/todos/1/tags`), with the same alternatives, as often as the
    word; a shared `/api` is kept."""
    from collections import Counter

    from core.grading.probe import _lookalike_paths

    concretes = ["/api/todos", "/api/todos/1", "/api/todos/1/tags", "/api/users/me", "/health", "/api/admin/todos/1/ban"]
    lookalikes = _lookalike_paths(concretes, lookalike_vocabulary(README, []))
    # a word replaced somewhere is replaced wherever it stands (red team round 11: `/api/admin/users/1/ban`)
    assert not any("todos" in path for c in concretes for path, *_ in lookalikes[c])

    requested = concretes + [path for c in concretes for path, *_ in lookalikes[c]]
    words = Counter(seg for path in requested for seg in path.split("/") if seg and seg != "1")
    assert words["api"] == 5 * 4  # kept: five /api paths, each requested with its three look-alikes
    for word in ("todos", "tags", "me", "health"):
        alternatives = {path.split("/")[c.split("/").index(word)]
                        for c in concretes if word in c.split("/") for path, *_ in lookalikes[c]}
        assert len(alternatives) == UNKNOWN_PATHS and word not in alternatives, (word, alternatives)
        assert {words[a] for a in alternatives} == {words[word]}, (word, words)
    assert {path.split("/")[2] for path, *_ in lookalikes["/api/users/me"]} == {"users"}  # no endpoint of its own


def test_nothing_listening_earns_nothing():
    """The probe runs once the service answered its start check: a service gone by then (it quit, or closed its
    socket) serves nothing, and its route code earns nothing (no static check)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    endpoints = [E("GET", "/api/items"), E("POST", "/login")]
    result = probe_endpoints(base_url=f"http://127.0.0.1:{port}", endpoints=endpoints, timeout=0.5)
    assert result.results == {e: False for e in endpoints}
    assert {o.reason for o in result.observations.values()} <= {Reason.FINGERPRINT_ERROR, Reason.ENDPOINT_ERROR}


def _dropping_server(stop, mode: str) -> int:
    """A raw server answering 200 on /api/items only; any other path gets its connection reset (`mode` "reset":
    SO_LINGER 0) or closed with no reply ("close"). Returns its port; runs until `stop` is set."""
    import struct
    import threading

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)
    srv.settimeout(0.05)

    def handle(conn):
        with conn:
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                data += chunk
            path = data.split(b" ", 2)[1]
            if path == b"/api/items":
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n[]")
            elif mode == "reset":
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))

    def loop():
        with srv:
            while not stop.is_set():
                try:
                    conn, _ = srv.accept()
                except TimeoutError:
                    continue
                threading.Thread(target=handle, args=(conn,), daemon=True).start()

    threading.Thread(target=loop, daemon=True).start()
    return srv.getsockname()[1]


@pytest.mark.parametrize("mode", ["reset", "close"])
def test_a_service_that_drops_unknown_paths_earns_nothing(mode):
    """Red team round 7: a service that resets (or closes without a reply) the connection of every path it does not
    know made the probe inconclusive, and the static check then credited dead route code (AC 6/6 for a service
    serving /health only). Dropping the unknown path is not implementing the endpoint, whatever it answers."""
    import threading

    stop = threading.Event()
    try:
        port = _dropping_server(stop, mode)
        endpoints = [E("GET", "/api/items"), E("POST", "/api/items")]
        result = probe_endpoints(base_url=f"http://127.0.0.1:{port}", endpoints=endpoints, timeout=1)
    finally:
        stop.set()
    assert result.results == {e: False for e in endpoints}
    assert {o.reason for o in result.observations.values()} == {Reason.FINGERPRINT_ERROR}


def test_proxy_environment_is_ignored(serve, monkeypatch):
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")
    monkeypatch.setenv("ALL_PROXY", "http://127.0.0.1:9")
    server = serve(routed_app)
    result = probe_endpoints(base_url=server.base_url, endpoints=[E("GET", "/health")], timeout=2)
    assert result.results == {E("GET", "/health"): True}


def test_the_overall_budget_bounds_the_probe_and_unreached_endpoints_earn_nothing(serve):
    def slow(method, path, body):
        time.sleep(0.3)
        return routed_app(method, path, body)

    server = serve(slow)
    endpoints = [E("GET", "/api/items"), E("POST", "/api/items"), E("DELETE", "/api/items/{id}"), E("GET", "/health")]
    started = time.monotonic()
    result = probe_endpoints(base_url=server.base_url, endpoints=endpoints, budget=1.2)
    assert time.monotonic() - started < 1.6  # no request outlasts what is left of the budget
    reasons = [o.reason for o in result.observations.values()]
    assert reasons.count(Reason.BUDGET_EXHAUSTED) >= 3  # 4 requests fit: at most one endpoint had all three
    assert all(result.results[e] is False for e, o in result.observations.items()
               if o.reason is Reason.BUDGET_EXHAUSTED)


def _trickling_server(stop):
    """A server that answers every request with one byte of its status line and headers every 0.3 s (forever)."""
    import threading

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)

    def serve_one(conn):
        reply = b"HTTP/1.1 200 OK\r\n" + b"X-Slow: " + b"a" * 400 + b"\r\n\r\n"
        with conn:
            for byte in reply:
                if stop.is_set():
                    return
                try:
                    conn.sendall(bytes([byte]))
                except OSError:
                    return
                time.sleep(0.3)

    def accept_loop():
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            threading.Thread(target=serve_one, args=(conn,), daemon=True).start()
        listener.close()

    threading.Thread(target=accept_loop, daemon=True).start()
    return f"http://127.0.0.1:{listener.getsockname()[1]}"


def test_a_service_that_trickles_its_headers_cannot_stretch_a_request():
    import threading

    stop = threading.Event()
    base = _trickling_server(stop)
    started = time.monotonic()
    try:  # each read gets a byte well within the 1 s timeout: only a wall-clock limit ends the request
        result = probe_endpoints(base_url=base, endpoints=[E("GET", "/a"), E("GET", "/b/c")], timeout=1.0)
    finally:
        stop.set()
    elapsed = time.monotonic() - started
    assert all(o.reason in (Reason.FINGERPRINT_TIMEOUT, Reason.ENDPOINT_ERROR) for o in result.observations.values())
    assert not any(result.results.values())
    assert elapsed < 4, f"two requests of at most 1 s each (a stall decides an endpoint) took {elapsed:.1f} s"


VERIFIED = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "repogenesis" / "verified"


def _list_attackers() -> dict[str, object]:
    """Services that know no route and answer 404 to a path by a published word list alone (red team round 12),
    judged on the last literal segment of the path: each answers True (200) or False (404) for a path."""
    from core.grading.probe_words import ACCESS_WORDS, NEVER_DRAWN, RESOURCE_NAMES, ROUTE_WORDS

    def words(path: str) -> list[str]:
        literal = [seg for seg in path.split("/") if seg and seg != "1"]
        return [w.lower() for w in re.findall(r"[A-Z]?[a-z]+", literal[-1])] if literal else []

    def denying(listed):
        return lambda path: not any(w in listed for w in words(path))

    def admitting(listed):
        return lambda path: any(w in listed for w in words(path))
    every = RESOURCE_NAMES | ROUTE_WORDS | ACCESS_WORDS
    return {"404 to resource names": denying(RESOURCE_NAMES), "404 to route words": denying(ROUTE_WORDS),
            "404 to access words": denying(ACCESS_WORDS), "404 to every list": denying(every),
            "200 to resource names": admitting(RESOURCE_NAMES), "200 to access words": admitting(ACCESS_WORDS),
            "200 to route words": admitting(ROUTE_WORDS),
            "200 to the words never drawn": admitting(NEVER_DRAWN)}


def test_no_published_word_list_tells_lookalikes_from_the_verified_endpoints():
    """Red team round 12: look-alikes were always words of RESOURCE_NAMES, and two thirds of the real path words of
    RepoGenesis Verified were not, so a service answering 404 to any listed word and 200 to the rest, the same
    service for every task, earned 191 of 287 endpoints (AC 10/10 on File_Relay). Look-alikes now come from the
    pool of the word they replace: such a service earns an endpoint only when all of its look-alikes answer 404 and
    the endpoint 200 (the probe's rule), here decided for every Verified endpoint, five times over."""
    from core.grading.endpoints import extract_endpoints
    from core.grading.probe import _lookalike_paths, concrete_path

    readmes = sorted(VERIFIED.glob("*/README.md"))
    assert len(readmes) == 30, f"RepoGenesis Verified is missing at {VERIFIED}"
    earned, total = {name: 0 for name in _list_attackers()}, 0
    for _ in range(5):
        for readme in readmes:
            text = readme.read_text()
            endpoints = extract_endpoints(text)
            concretes = sorted({concrete_path(e) for e in endpoints})
            lookalikes = _lookalike_paths(concretes, lookalike_vocabulary(text, endpoints))
            total += len(endpoints)
            for name, answers in _list_attackers().items():
                earned[name] += sum(answers(concrete_path(e)) and not any(answers(p) for p, *_ in
                                                                          lookalikes[concrete_path(e)])
                                    for e in endpoints)
    shares = {name: round(n / total, 3) for name, n in earned.items()}
    # the documented exception: endpoints named by words never drawn (`/health`: 10 of 287), and `/` itself
    assert max(shares.values()) <= 0.05, shares


def _gzip_of_zeros(size: int) -> bytes:
    """gzip of `size` zero bytes, made a megabyte at a time."""
    import zlib

    packer, block = zlib.compressobj(9, zlib.DEFLATED, 31), bytes(1 << 20)
    return b"".join([*(packer.compress(block) for _ in range(size >> 20)), packer.flush()])


def test_a_compressed_bomb_is_read_as_sent_never_decoded(serve):
    """Red team round 12: replies with `Content-Encoding: gzip, gzip` grew 5 KB on the wire into 3 GiB of the
    worker's memory while the probe decoded them (the probe runs in the worker, outside every sandbox). The probe
    asks for no compression and compares bodies as sent: here 256 MiB of zeros, gzipped twice, cost the probe less
    than 8 MiB, and the route still counts (its compressed body differs from the "no such route" one)."""
    import gzip
    import tracemalloc

    bomb = gzip.compress(_gzip_of_zeros(256 << 20))
    headers = {"Content-Encoding": "gzip, gzip"}

    def bombing(method, path, body):
        if path == "/api/files":
            return 200, "application/json", bomb, headers
        return 404, "application/json", gzip.compress(gzip.compress(b'{"detail": "Not Found"}', mtime=0), mtime=0), \
            headers

    server = serve(bombing)
    tracemalloc.start()
    try:
        result = probe_endpoints(base_url=server.base_url, endpoints=[E("GET", "/api/files")], timeout=5)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.results == {E("GET", "/api/files"): True}, result.observations
    assert peak < 8 << 20, f"the probe held {peak >> 20} MiB"
