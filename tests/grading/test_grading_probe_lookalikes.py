"""The probe's look-alike unknown paths in their every form (issue 16, mutation pass of core/grading/probe.py,
`_lookalike_paths`, `_lookalike_segment`, `_word_like`): what is requested in place of each endpoint, so that a
service knowing no route cannot tell the endpoint's own request from its look-alikes."""
from __future__ import annotations

import re
import time

from core.grading.paths import Endpoint
from core.grading.probe import UNKNOWN_PATHS, Reason, _lookalike_paths, probe_endpoints

E = Endpoint.of
NEAR_PLURALS = ("albums", "alerts", "audits", "badges", "banks", "boards", "books")  # 4 to 6 letters, plurals
NEAR_SINGULARS = ("album", "alert", "audit", "badge", "bank")
LONG_PLURALS = ("appointments", "attachments", "categories", "collections", "dashboards")


def new_words(lookalikes, concrete):
    return [word for _, *words in lookalikes[concrete] for word in words]


def test_a_path_without_words_gets_a_lower_case_word_in_front_and_keeps_its_end(serve):
    """`/` and `/{id}` have no segment to disguise: their look-alikes are one word in front (the same words for
    both, one substitution per probe), nothing after; both are credited when they answer."""
    server = serve(lambda method, path, body: (200, "text/plain", b"home") if path in ("/", "/1")
                   else (404, "text/plain", b"no"))
    result = probe_endpoints(base_url=server.base_url, endpoints=[E("GET", "/"), E("GET", "/{id}")], timeout=2)
    assert result.results == {E("GET", "/"): True, E("GET", "/{id}"): True}
    paths = sorted(path for _, path, _ in server.requests)
    assert paths.count("/") == 1 and paths.count("/1") == 1 and len(paths) == 2 * (UNKNOWN_PATHS + 1)
    front = {p[1:] for p in paths if re.fullmatch(r"/[a-z]{6,8}", p)}
    assert len(front) == UNKNOWN_PATHS, paths
    assert {p[1:-2] for p in paths if re.fullmatch(r"/[a-z]{6,8}/1", p)} == front, paths


def test_without_a_vocabulary_the_word_in_front_is_six_to_eight_random_letters():
    lengths = set()
    for _ in range(30):
        for word in new_words(_lookalike_paths(["/"], ()), "/"):
            assert re.fullmatch(r"[a-z]+", word), word
            lengths.add(len(word))
    assert lengths == {6, 7, 8}


def test_a_dozen_one_letter_paths_without_a_vocabulary_still_get_their_lookalikes():
    """The mutation pass of issue 16: one-letter look-alikes ran out before UNKNOWN_PATHS were found for each of
    `/a` ... `/l`, and the probe raised IndexError. Longer random words fill in."""
    concretes = [f"/{letter}" for letter in "abcdefghijkl"]
    for _ in range(5):
        found = _lookalike_paths(concretes, ())
        assert all(len(found[c]) == UNKNOWN_PATHS for c in concretes)
        words = [path for c in concretes for path, *_ in found[c]]
        assert len(set(words)) == len(words) and not set(words) & set(concretes)


def test_lookalikes_keep_the_digits_of_a_segment_as_as_many_random_digits():
    for _ in range(20):
        for word in new_words(_lookalike_paths(["/api/reports2024"], ()), "/api/reports2024"):
            assert re.fullmatch(r"[a-z]{7}\d{4}", word), word


def test_a_lookalike_is_about_as_long_as_the_word_it_replaces_and_a_plural_for_a_plural():
    """With at least 5 such words left, `notes` gets a plural of 3 to 7 letters: never a singular, never a long
    plural."""
    vocabulary = tuple(sorted(NEAR_PLURALS + NEAR_SINGULARS + LONG_PLURALS))
    drawn = set()
    for _ in range(30):
        words = new_words(_lookalike_paths(["/api/notes"], vocabulary), "/api/notes")
        assert len(set(words)) == UNKNOWN_PATHS and set(words) <= set(NEAR_PLURALS), words
        drawn |= set(words)
    assert len(drawn) > UNKNOWN_PATHS  # drawn at random among them


def test_lookalikes_keep_to_the_vocabulary_while_it_has_unused_words():
    """Five words near `notes` and `tasks`, three far from them: the second path, finding only two near words left
    unused, draws among the unused ones, never random letters."""
    vocabulary = tuple(sorted(NEAR_PLURALS[:5] + LONG_PLURALS[:3]))
    for _ in range(10):
        lookalikes = _lookalike_paths(["/api/notes", "/api/tasks"], vocabulary)
        words = new_words(lookalikes, "/api/notes") + new_words(lookalikes, "/api/tasks")
        assert len(set(words)) == 2 * UNKNOWN_PATHS and set(words) <= set(vocabulary), words


def test_a_vocabulary_word_stands_in_one_lookalike_only_also_inside_compound_segments():
    """`todo_items` gets two words per look-alike; a word used in one look-alike is used in no other (here four
    words serve six places: random letters stand in once they are used up)."""
    vocabulary = ("albums", "badges", "boards", "books")
    for _ in range(20):
        paths = [path for path, *_ in _lookalike_paths(["/todo_items"], vocabulary)["/todo_items"]]
        assert all(re.fullmatch(r"/[a-z]+_[a-z]+", p) for p in paths), paths
        seen = [set(p[1:].split("_")) for p in paths]
        for i, words in enumerate(seen):
            assert not words & set().union(*seen[:i], *seen[i + 1:]) & set(vocabulary), paths


def test_a_vocabulary_word_naming_a_declared_endpoint_is_never_a_lookalike(serve):
    """A vocabulary holding the endpoints' own words (`lookalike_vocabulary` leaves them out; a caller's list may
    not): no look-alike requests another endpoint, random letters stand in, both routes are credited."""
    server = serve(lambda method, path, body: (200, "text/plain", path.encode()) if path in ("/todos", "/notes")
                   else (404, "text/plain", b"no"))
    endpoints = [E("GET", "/todos"), E("GET", "/notes")]
    result = probe_endpoints(base_url=server.base_url, endpoints=endpoints, timeout=2, vocabulary=("notes", "todos"))
    assert result.results == {endpoint: True for endpoint in endpoints}
    paths = [path for _, path, _ in server.requests]
    assert paths.count("/todos") == 1 and paths.count("/notes") == 1
    assert all(re.fullmatch(r"/[a-z]{5}", p) for p in paths), paths


def test_lookalikes_keep_the_case_of_each_word():
    """UPPER stays UPPER, a lone capital (`planA`) is Capitalised, camelCase stays camelCase."""
    vocabulary = NEAR_PLURALS + NEAR_SINGULARS + LONG_PLURALS
    for _ in range(10):
        lookalikes = _lookalike_paths(["/api/TODOS", "/api/planA", "/api/userProfiles"], vocabulary)
        for concrete, style in (("/api/TODOS", r"[A-Z]+"), ("/api/planA", r"[a-z]+[A-Z][a-z]*"),
                                ("/api/userProfiles", r"[a-z]+[A-Z][a-z]+")):
            assert all(re.fullmatch(style, word) for word in new_words(lookalikes, concrete)), lookalikes[concrete]


def test_a_stall_past_a_timeout_under_the_budgets_floor_still_earns_nothing(serve):
    """With a budget, each request gets at least 0.05 s of it; a smaller `timeout` is then httpx's own limit, which
    ends the request first: an endpoint that sends no status in time is still not implemented."""
    def handler(method, path, body):
        if path == "/api/slow":
            time.sleep(0.5)
        return 404, "text/plain", b"no"
    server = serve(handler)
    result = probe_endpoints(base_url=server.base_url, endpoints=[E("GET", "/api/slow")], timeout=0.04, budget=10)
    o = result.observations[E("GET", "/api/slow")]
    # ENDPOINT_ERROR; FINGERPRINT_TIMEOUT when a loaded machine kept a look-alike's 404 past 0.04 s
    assert (o.implemented, o.endpoint_status) == (False, None)
    assert o.reason in (Reason.ENDPOINT_ERROR, Reason.FINGERPRINT_TIMEOUT)
