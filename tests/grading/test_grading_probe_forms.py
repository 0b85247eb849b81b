"""The probe's rules in their every form, against small real HTTP servers on 127.0.0.1 (issue 16, mutation pass of
core/grading/probe.py): what is sent, how each status and body is judged, the slashed retry, the time limits."""
from __future__ import annotations

import email.utils
import json
import socket
import threading
import time
import uuid
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from core.grading.paths import Endpoint
from core.grading.probe import MAX_BODY_BYTES, UNKNOWN_PATHS, Reason, lookalike_vocabulary, probe_endpoints
from core.grading.probe_words import ACCESS_WORDS, RESOURCE_NAMES, ROUTE_WORDS

E = Endpoint.of
NOT_FOUND = b'{"detail": "Not Found"}'


def observed(result, endpoint):
    o = result.observations[endpoint]
    return o.implemented, o.reason, o.endpoint_status, o.fingerprint_status


def test_what_the_probe_sends_for_each_method():
    """No compression asked for, the Python suites' User-Agent, no credentials; `{}` as JSON for POST, PUT and
    PATCH only; every parameter filled with 1; a 404 on the endpoint's path retried with a slash."""
    seen = []

    class Recorder(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _serve(self):
            length = int(self.headers.get("Content-Length") or 0)
            seen.append((self.command, self.path, dict(self.headers), self.rfile.read(length) if length else b""))
            self.send_response(404)
            self.send_header("Content-Length", str(len(NOT_FOUND)))
            self.end_headers()
            self.wfile.write(NOT_FOUND)

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _serve

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
    endpoints = [E("GET", "/api/a"), E("POST", "/api/b"), E("PUT", "/api/c/{id}"), E("PATCH", "/api/d"),
                 E("DELETE", "/api/e/<int:id>")]
    try:
        result = probe_endpoints(base_url=f"http://127.0.0.1:{httpd.server_address[1]}", endpoints=endpoints,
                                 timeout=2)
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert {observed(result, e) for e in endpoints} == {(False, Reason.NOT_FOUND, 404, 404)}
    assert len(seen) == len(endpoints) * 2 * (UNKNOWN_PATHS + 1)  # look-alikes and endpoint, then slashed
    for method, path, headers, body in seen:
        headers = {k.lower(): v for k, v in headers.items()}
        assert headers["accept-encoding"] == "identity" and headers["user-agent"] == "python-requests/2.32.3"
        assert "authorization" not in headers and "cookie" not in headers
        if method in ("POST", "PUT", "PATCH"):
            assert body == b"{}" and headers["content-type"] == "application/json", (method, path)
        else:
            assert body == b"" and "content-type" not in headers, (method, path)
    requested = {(m, p) for m, p, _, _ in seen}
    assert {("PUT", "/api/c/1"), ("PUT", "/api/c/1/"), ("DELETE", "/api/e/1"), ("GET", "/api/a/")} <= requested


def test_each_status_of_the_endpoint_is_judged_against_the_routes_404(serve):
    """404, 405 and 501 mean "no such route" (405 and 501 whatever their body); every other status is an answer,
    a redirect too; a 404 counts only with a body other than the service's "no such route" one; only a 404 gets
    the slashed retry."""
    answers = {"/api/cats": (405, NOT_FOUND), "/api/dogs": (501, NOT_FOUND), "/api/owls": (405, b"other"),
               "/api/mice": (501, b"other"), "/api/bees": (400, NOT_FOUND), "/api/ants": (500, NOT_FOUND),
               "/api/cows": (403, NOT_FOUND), "/api/pigs": (404, b'{"detail": "no pig 1"}'),
               "/api/hens": (404, NOT_FOUND), "/api/yaks": (302, NOT_FOUND), "/api/elks": (200, NOT_FOUND)}

    def app(method, path, body):
        status, payload = answers.get(path, (404, NOT_FOUND))
        return status, "application/json", payload

    server = serve(app)
    endpoints = [E("GET", path) for path in answers]
    result = probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=2)
    assert {e.path: observed(result, e) for e in endpoints} == {
        "/api/cats": (False, Reason.NOT_FOUND, 405, 404), "/api/dogs": (False, Reason.NOT_FOUND, 501, 404),
        "/api/owls": (False, Reason.NOT_FOUND, 405, 404), "/api/mice": (False, Reason.NOT_FOUND, 501, 404),
        "/api/bees": (True, Reason.STATUS, 400, 404), "/api/ants": (True, Reason.STATUS, 500, 404),
        "/api/cows": (True, Reason.STATUS, 403, 404), "/api/pigs": (True, Reason.BODY_DIFFERS, 404, 404),
        "/api/hens": (False, Reason.NOT_FOUND, 404, 404), "/api/yaks": (True, Reason.STATUS, 302, 404),
        "/api/elks": (True, Reason.STATUS, 200, 404)}
    assert result.results == {e: e.path in ("/api/bees", "/api/ants", "/api/cows", "/api/pigs", "/api/yaks",
                                            "/api/elks") for e in endpoints}
    slashed = {p for _, p, _ in server.requests if p.endswith("/")}
    assert "/api/hens/" in slashed and not slashed & {"/api/cats/", "/api/dogs/", "/api/owls/", "/api/mice/"}
    assert len(slashed) == UNKNOWN_PATHS + 1  # the hens' only


def test_a_catch_all_of_another_status_is_compared_by_status_and_body(serve):
    """Unknown paths answering alike with a status other than 404 (here 405 naming the path): the endpoint counts
    only when its status or its body (the path masked) differs."""
    answers = {"/api/cats": (405, None), "/api/dogs": (405, b"method list: GET"), "/api/owls": (200, None)}

    def app(method, path, body):
        status, payload = answers.get(path, (405, None))
        return status, "text/plain", payload or f"no {method} on {path} at all".encode()

    server = serve(app)
    endpoints = [E("GET", path) for path in answers]
    result = probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=2)
    assert {e.path: observed(result, e) for e in endpoints} == {
        "/api/cats": (False, Reason.CATCH_ALL, 405, 405), "/api/dogs": (True, Reason.CATCH_ALL_DIFFERS, 405, 405),
        "/api/owls": (True, Reason.CATCH_ALL_DIFFERS, 200, 405)}
    assert not any(p.endswith("/") for _, p, _ in server.requests)  # no slashed retry behind a catch-all


def test_a_no_such_route_reply_that_echoes_the_last_segment_earns_nothing(serve):
    """A service knowing no route that names the requested resource in its 404 ("unknown resource 'todos'") or in
    its catch-all page: the endpoint's own word is masked as the look-alikes' are (it earned every endpoint)."""
    def not_found(method, path, body):
        return json.dumps({"error": f"unknown resource '{path.rstrip('/').rsplit('/', 1)[-1]}'"}).encode()

    endpoints = [E("GET", "/api/todos"), E("GET", "/api/users/{id}/tags"), E("POST", "/login")]
    for status in (404, 200):
        server = serve(lambda m, p, b: (status, "application/json", not_found(m, p, b)))
        result = probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=2,
                                 vocabulary=lookalike_vocabulary("", endpoints))
        reason = Reason.NOT_FOUND if status == 404 else Reason.CATCH_ALL
        assert {observed(result, e) for e in endpoints} == {(False, reason, status, status)}, result.observations
    # a two-letter word is masked too (random letters here, as long as "me")
    server = serve(lambda m, p, b: (404, "application/json", not_found(m, p, b)))
    result = probe_endpoints(base_url=server.base_url, endpoints=[E("GET", "/api/users/me")], timeout=2)
    assert observed(result, E("GET", "/api/users/me")) == (False, Reason.NOT_FOUND, 404, 404)
    # a word inside a longer one is not the word: "me" is no part of "message"
    server = serve(lambda m, p, b: (404, "application/json", b'{"message": "Not Found"}'))
    result = probe_endpoints(base_url=server.base_url, endpoints=[E("GET", "/api/users/me")], timeout=2)
    assert observed(result, E("GET", "/api/users/me")) == (False, Reason.NOT_FOUND, 404, 404)


def test_bodies_are_compared_on_their_first_max_body_bytes_only(serve):
    unknown = b"x" * MAX_BODY_BYTES + b"A"
    answers = {"/api/near": b"x" * (MAX_BODY_BYTES - 1) + b"BA", "/api/far": b"x" * MAX_BODY_BYTES + b"B"}
    server = serve(lambda m, p, b: (404, "text/plain", answers.get(p.rstrip("/"), unknown)))
    endpoints = [E("GET", "/api/near"), E("GET", "/api/far")]
    result = probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=5)
    assert observed(result, endpoints[0]) == (True, Reason.BODY_DIFFERS, 404, 404)
    assert observed(result, endpoints[1]) == (False, Reason.NOT_FOUND, 404, 404)


def test_bodies_that_are_not_utf8_are_compared_not_refused(serve):
    answers = {"/api/raw": (200, b"\xff\xfe\x00"), "/api/bin": (404, b"\xc3\x28 other")}

    def app(method, path, body):
        status, payload = answers.get(path, (404, b"\xff not found \xfe"))
        return status, "application/octet-stream", payload

    server = serve(app)
    endpoints = [E("GET", "/api/raw"), E("GET", "/api/bin"), E("GET", "/api/nil")]
    result = probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=2)
    assert [observed(result, e) for e in endpoints] == [(True, Reason.STATUS, 200, 404),
                                                        (True, Reason.BODY_DIFFERS, 404, 404),
                                                        (False, Reason.NOT_FOUND, 404, 404)]


def test_not_found_pages_with_volatile_parts_and_odd_paths_still_match(serve):
    """HTTP dates, UUIDs, epoch times, ISO times with an offset, white space, and the path echoed as sent
    (percent-encoded), without its trailing slash, or as `/x`: all masked, so a missing endpoint is NOT_FOUND
    (not UNSTABLE_404, not BODY_DIFFERS)."""
    count = [0]

    def app(method, path, body):
        count[0] += 1
        now = datetime.now(timezone(timedelta(hours=1))) + timedelta(seconds=count[0])
        text = (f"Date: {email.utils.formatdate(time.time() + count[0], usegmt=True)} id {uuid.uuid4()} "
                f"at {time.time() + count[0]:.6f} or {time.time_ns() + count[0]} {now.isoformat()}"
                f"{' ' * count[0]}{now.strftime('%Y-%m-%d %H:%M')} no page {path if '%' in path else path.rstrip('/')}")
        return 404, "text/plain", text.encode()

    server = serve(app)
    endpoints = [E("GET", "/api/café"), E("GET", "/api/movies"), E("GET", "/x"), E("GET", "/api/INDEX")]
    result = probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=2)
    assert {e.path: observed(result, e) for e in endpoints} == {e.path: (False, Reason.NOT_FOUND, 404, 404)
                                                                for e in endpoints}
    assert "/api/caf%C3%A9/" in {p for _, p, _ in server.requests}


def test_the_root_is_compared_without_masking_its_slash(serve):
    """"/" is too short to mask: every "/" of the page would be; the root has no slashed form either."""
    server = serve(lambda m, p, b: (404, "application/json", b'{"detail": "Not Found", "docs": "/docs/"}'))
    result = probe_endpoints(base_url=server.base_url, endpoints=[E("GET", "/")], timeout=2)
    assert observed(result, E("GET", "/")) == (False, Reason.NOT_FOUND, 404, 404)
    assert len(server.requests) == UNKNOWN_PATHS + 1  # no slashed retry


def test_one_letter_lookalike_words_are_not_masked(serve):
    """Look-alike words shorter than two letters are not masked in the bodies (a single letter would be masked in
    every word of the page)."""
    alphabet = b"abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    server = serve(lambda m, p, b: (404, "text/plain", b"Not Found: " + alphabet))
    endpoint = E("GET", "/api/q/{id}")
    for _ in range(3):
        result = probe_endpoints(base_url=server.base_url, endpoints=[endpoint], timeout=2)
        assert observed(result, endpoint) == (False, Reason.NOT_FOUND, 404, 404)


@pytest.mark.parametrize("status, implemented", [(200, True), (299, True), (300, False), (301, False),
                                                 (399, False), (400, True), (405, False), (501, False)])
def test_the_slashed_retry_counts_any_answer_but_a_redirect(serve, status, implemented):
    def app(method, path, body):
        if path == "/api/movies/":
            return status, "text/plain", b"moved" if 300 <= status < 400 else b"a movie list"
        return 404, "application/json", NOT_FOUND

    server = serve(app)
    endpoint = E("GET", "/api/movies")
    result = probe_endpoints(base_url=server.base_url, endpoints=[endpoint], timeout=2)
    expected = (True, Reason.STATUS, status, 404) if implemented else (False, Reason.NOT_FOUND, 404, 404)
    assert observed(result, endpoint) == expected


def _slashed(kind: str):
    """A service answering 404 NOT_FOUND to every path without a trailing slash, and slashed paths by `kind`."""
    import secrets

    def app(method, path, body):
        if not path.endswith("/"):
            return 404, "application/json", NOT_FOUND
        mine = path == "/api/movies/"
        if kind == "own 404":  # a 404 of its own on the slashed endpoint
            return 404, "application/json", b'{"detail": "no such movie"}' if mine else NOT_FOUND
        if kind == "shell":  # a catch-all for slashed paths, naming the path
            return 200, "text/html", f"<p>shell of {path}</p>".encode()
        if kind == "route":  # the same catch-all, but the route answers something else
            return 200, "text/html", b"<p>the route</p>" if mine else b"<p>shell</p>"
        if kind == "same status":  # the catch-all's status with another body
            return 200, "text/html", b"<p>the route</p>" if mine else b"<p>shell</p>"
        if kind == "other status":  # another status with the catch-all's body
            return (201 if mine else 200), "text/html", b"<p>shell</p>"
        if kind == "random":  # slashed paths answer anything, differently
            return 200, "text/html", secrets.token_hex(8).encode()
        return 404, "text/html", b"<p>yes</p>" if mine else secrets.token_hex(8).encode()  # slashed 404s vary
    return app


@pytest.mark.parametrize("kind, expected", [
    ("own 404", (True, Reason.BODY_DIFFERS, 404, 404)), ("shell", (False, Reason.NOT_FOUND, 404, 404)),
    ("route", (True, Reason.STATUS, 200, 404)), ("other status", (True, Reason.STATUS, 201, 404)),
    ("random", (False, Reason.NOT_FOUND, 404, 404)), ("varying 404", (False, Reason.NOT_FOUND, 404, 404))])
def test_the_slashed_retry_is_judged_against_the_slashed_lookalikes(serve, kind, expected):
    server = serve(_slashed(kind))
    endpoint = E("GET", "/api/movies")
    result = probe_endpoints(base_url=server.base_url, endpoints=[endpoint], timeout=2)
    assert observed(result, endpoint) == expected


def test_a_stalled_slashed_request_earns_nothing(serve):
    def app(method, path, body):
        if path == "/api/movies/":
            time.sleep(1.0)
            return 200, "text/plain", b"late"
        return 404, "application/json", NOT_FOUND

    server = serve(app)
    endpoint = E("GET", "/api/movies")
    result = probe_endpoints(base_url=server.base_url, endpoints=[endpoint], timeout=0.3)
    assert observed(result, endpoint) == (False, Reason.NOT_FOUND, 404, 404)


def test_a_stall_decides_its_endpoint_and_the_others_are_still_probed(serve):
    """A look-alike that stalls decides its endpoint (fingerprint_timeout): no more of its requests are sent, so a
    stalling service costs one time-out per endpoint; the other endpoints are probed as usual."""
    def app(method, path, body):
        if path.startswith("/api/") and path != "/api/slow":
            time.sleep(1.0)
        if path == "/v2/fast":
            return 200, "application/json", b"[]"
        return 404, "application/json", NOT_FOUND

    server = serve(app)
    endpoints = [E("GET", "/api/slow"), E("GET", "/v2/fast")]
    started = time.monotonic()
    result = probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=0.3)
    elapsed = time.monotonic() - started
    assert observed(result, endpoints[0]) == (False, Reason.FINGERPRINT_TIMEOUT, None, None)
    assert observed(result, endpoints[1]) == (True, Reason.STATUS, 200, 404)
    assert elapsed < 0.55, elapsed
    assert len([p for _, p, _ in server.requests if p.startswith("/api/") and p != "/api/slow"]) == 1


def test_each_request_gets_the_smaller_of_its_timeout_and_what_is_left_of_the_budget(serve):
    def app(method, path, body):
        if path == "/api/slow":
            time.sleep(1.0)
        time.sleep(0.15)
        return (200, "application/json", b"[]") if path in ("/api/slow", "/api/ok") else (404, "text/plain", b"no")

    server = serve(app)
    slow, ok = E("GET", "/api/slow"), E("GET", "/api/ok")
    started = time.monotonic()  # a long budget: each request is bounded by its own timeout, and gets all of it
    result = probe_endpoints(base_url=server.base_url, endpoints=[slow, ok], timeout=0.4, budget=30)
    assert time.monotonic() - started < 1.8
    assert observed(result, slow) == (False, Reason.ENDPOINT_ERROR, None, None)
    assert observed(result, ok) == (True, Reason.STATUS, 200, 404)

    started = time.monotonic()  # a short budget: no request outlasts it, however long its timeout
    result = probe_endpoints(base_url=server.base_url, endpoints=[slow], timeout=5, budget=0.1)
    assert time.monotonic() - started < 0.6
    assert not result.results[slow]


def test_a_request_near_the_end_of_the_budget_still_gets_no_more_than_its_timeout():
    """With less than a second of the budget left, a request still gets at most its own timeout: an endpoint
    that trickles its status line over 0.6 s is cut at 0.3 s, not given the 0.9 s left."""
    stop = threading.Event()
    try:
        base = _raw_server(stop, b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nX-Pad: 0123456789\r\n\r\n", "trickle")
        result = probe_endpoints(base_url=base, endpoints=[E("GET", "/api/part")], timeout=0.3, budget=0.9)
    finally:
        stop.set()
    assert observed(result, E("GET", "/api/part")) == (False, Reason.ENDPOINT_ERROR, None, None)


def test_a_budget_spent_during_the_slashed_retry_leaves_the_endpoints_unreached(serve):
    """The slashed requests share the budget: an endpoint whose slashed requests were not all sent is
    budget_exhausted, each of them (the one whose request the deadline cut stalled: not_found)."""
    def app(method, path, body):
        if path.endswith("/"):
            time.sleep(0.2)
        return 404, "application/json", NOT_FOUND

    server = serve(app)
    endpoints = [E("GET", "/api/a"), E("GET", "/api/b"), E("GET", "/api/c")]
    result = probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=2, budget=0.6)
    assert sorted(observed(result, e) for e in endpoints) == [(False, Reason.BUDGET_EXHAUSTED, None, None)] * 2 + [
        (False, Reason.NOT_FOUND, 404, 404)]


def test_no_budget_left_sends_nothing(serve):
    server = serve(lambda m, p, b: (200, "text/plain", b"ok"))
    endpoints = [E("GET", "/api/a"), E("POST", "/api/b")]
    result = probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=2, budget=0)
    assert {observed(result, e) for e in endpoints} == {(False, Reason.BUDGET_EXHAUSTED, None, None)}
    assert server.requests == []


def _raw_server(stop, reply: bytes, then: str) -> str:
    """Answers 404 to every path but /api/part, which gets `reply`, then a stall until `stop` ("stall") or the
    connection closed ("close"); or `reply` a byte at a time ("trickle")."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.05)

    def handle(conn):
        with conn:
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                data += chunk
            path = data.split(b" ", 2)[1]
            if path != b"/api/part":
                conn.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\nConnection: close\r\n\r\nno")
                return
            if then == "trickle":  # a byte every 10 ms, each in time for the client's read timeout
                for byte in reply:
                    if stop.is_set():
                        return
                    conn.sendall(bytes([byte]))
                    time.sleep(0.01)
                return
            conn.sendall(reply)
            if then == "stall":
                stop.wait(3)

    def loop():
        with listener:
            while not stop.is_set():
                try:
                    conn, _ = listener.accept()
                except TimeoutError:
                    continue
                threading.Thread(target=handle, args=(conn,), daemon=True).start()

    threading.Thread(target=loop, daemon=True).start()
    return f"http://127.0.0.1:{listener.getsockname()[1]}"


@pytest.mark.parametrize("then", ["stall", "close"])
def test_a_reply_cut_after_its_headers_keeps_its_status(then):
    """A reply whose body stops coming (a stall past the time limit, or a connection closed early) is judged on
    its status and what arrived of its body."""
    stop = threading.Event()
    try:
        base = _raw_server(stop, b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial", then)
        result = probe_endpoints(base_url=base, endpoints=[E("GET", "/api/part")], timeout=0.4)
    finally:
        stop.set()
    assert observed(result, E("GET", "/api/part")) == (True, Reason.STATUS, 200, 404)


def test_the_lookalike_vocabulary_leaves_out_every_form_of_the_readme_words():
    """Singular and plural both ways (`-s`, `-es`, `-ies`), words in capitals at the end of the README or of any
    declared path."""
    def vocabulary(text, endpoints=()):
        words = lookalike_vocabulary(text, list(endpoints))
        assert list(words) == sorted(words)
        return set(words)

    assert {"address", "addresses"} <= vocabulary("")
    assert not {"address", "addresses"} & vocabulary("address")
    assert not {"address", "addresses"} & vocabulary("addresses")
    assert not {"city", "cities"} & vocabulary("city")
    assert not {"city", "cities"} & vocabulary("cities")
    assert {"category", "categories"} <= vocabulary("") and not {"category", "categories"} & vocabulary("categories")
    assert not {"item", "items"} & vocabulary("items")
    assert "status" in vocabulary("") and "status" not in vocabulary("see the service STATUS")
    assert not {"token", "login"} & vocabulary("", [E("GET", "/api/TOKEN"), E("GET", "/api/LOGIN")])
    assert not {"token", "login"} & vocabulary("read this", [E("GET", "/api/TOKEN"), E("GET", "/api/LOGIN")])


def test_lookalike_words_come_from_the_pool_of_the_word_they_replace():
    """A resource name stands in for a resource name, an access word for an access word, a route word for a route
    word, so no published list tells a look-alike from the endpoint."""
    from core.grading.probe import _lookalike_paths

    vocabulary = lookalike_vocabulary("", [])
    for _ in range(10):
        lookalikes = _lookalike_paths(["/api/search", "/login", "/invoices"], vocabulary)
        for concrete, pool in (("/api/search", ROUTE_WORDS), ("/login", ACCESS_WORDS), ("/invoices", RESOURCE_NAMES)):
            words = {path.rsplit("/", 1)[1] for path, *_ in lookalikes[concrete]}
            assert len(words) == UNKNOWN_PATHS and words <= pool, (concrete, words)


def test_unstable_unknown_paths_report_the_endpoints_status(serve):
    """Unknown paths answering anything, differently: nothing counts, each endpoint's status still reported; 404s
    that vary: only a status other than 404/405/501 counts."""
    import secrets

    server = serve(lambda m, p, b: (200, "text/plain", secrets.token_hex(6).encode()))
    result = probe_endpoints(base_url=server.base_url, endpoints=[E("GET", "/api/a")], timeout=2)
    assert observed(result, E("GET", "/api/a")) == (False, Reason.CATCH_ALL_UNSTABLE, 200, None)

    server = serve(lambda m, p, b: (201 if p == "/api/b" else 404, "text/plain", secrets.token_hex(6).encode()))
    endpoints = [E("GET", "/api/a"), E("GET", "/api/b")]
    result = probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=2)
    assert [observed(result, e) for e in endpoints] == [(False, Reason.UNSTABLE_404, 404, 404),
                                                        (True, Reason.STATUS, 201, 404)]


def test_a_body_is_read_up_to_max_body_bytes_and_no_further():
    """MAX_BODY_BYTES arrived: the reply is complete for the probe, which does not wait for the rest of a body
    that stalls (here after exactly 64 KiB of the 1 MB its headers announce)."""
    stop = threading.Event()
    try:
        head = b"HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n"
        base = _raw_server(stop, head + b"x" * MAX_BODY_BYTES, "stall")
        started = time.monotonic()
        result = probe_endpoints(base_url=base, endpoints=[E("GET", "/api/part")], timeout=2)
        elapsed = time.monotonic() - started
    finally:
        stop.set()
    assert observed(result, E("GET", "/api/part")) == (True, Reason.STATUS, 200, 404)
    assert elapsed < 1.5, elapsed
