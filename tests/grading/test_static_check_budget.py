"""Issue 15, red team round 12 (`static-check-quadratic-stall`): the static route check runs in the worker, on the
host, after the sandbox is gone. Each call-like match scanned to the end of the file when its bracket never closed
(an app.py of "f(" * 16000, 32 KB, took 80 s; 1 MB would take ~21 h). Bracket matching is now one pass per text,
and the whole check has a budget (characters of work and seconds): past it the check stops and says so."""
from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest

from core.grading import _source as src
from core.grading.paths import Endpoint
from core.grading.static_routes import static_routes_check, static_routes_match

_STRING = re.compile(r'"""(?:.|\n)*?"""|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')
_TEMPLATE = re.compile(r"`[^`]*`")


@pytest.fixture(autouse=True)
def _remove_deep_trees(tmp_path):
    """pytest's own clean-up of old temporary folders recurses (shutil.rmtree): deep trees go here, iteratively."""
    yield
    import subprocess

    subprocess.run(["rm", "-rf", "--", str(tmp_path)], check=False)


def _old_balanced(text: str, open_pos: int) -> str | None:
    """The scan `balanced` was before the fix, as the reference for what it must still answer."""
    if open_pos >= len(text) or text[open_pos] not in "([{":
        return None
    depth, i = 0, open_pos
    while i < len(text):
        c = text[i]
        if c in "\"'`":
            m = (_STRING if c != "`" else _TEMPLATE).match(text, i)
            i = m.end() if m else i + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return text[open_pos + 1 : i]
        i += 1
    return None


def test_balanced_answers_what_the_scan_from_each_opener_answered():
    """Every position of random texts made of brackets, quotes, backslashes and newlines (openers inside strings,
    unclosed strings and brackets included) gets the old scan's answer."""
    rng = random.Random(15)
    for _ in range(400):
        text = "".join(rng.choice("(()[]{}\"\"'`\\ a\n") for _ in range(rng.randint(0, 60)))
        for pos in range(len(text) + 1):
            assert src.balanced(text, pos) == _old_balanced(text, pos), (text, pos)


@pytest.mark.parametrize("name, text", [
    ("app.py", "f(" * 16000),  # 80 s before
    ("app.py", "@app.get(" * 100_000),
    ("App.java", "@a(" * 100_000),
    ("app.js", ".route('/y')" + ".get(f" * 50_000),
], ids=["python-calls", "python-decorators", "java-annotations", "js-route-chain"])
def test_unclosed_calls_cost_linear_time(tmp_path, name, text):
    (tmp_path / name).write_text(text)
    started = time.monotonic()
    found = static_routes_match(repo_dir=tmp_path, endpoints=[Endpoint.of("GET", "/x")])
    assert time.monotonic() - started < 5 and found == {Endpoint.of("GET", "/x"): False}


def test_past_its_budget_the_check_stops_says_so_and_keeps_what_it_found(tmp_path):
    """Nested calls make every argument list nearly the whole file: the characters analysed are charged, and the
    check stops at the budget instead of running for hours."""
    (tmp_path / "a_routes.py").write_text('@app.get("/items")\ndef items():\n    return []\n')
    (tmp_path / "b_bomb.py").write_text("f(" * 50_000 + ")" * 50_000)
    started = time.monotonic()
    check = static_routes_check(repo_dir=tmp_path, endpoints=[Endpoint.of("GET", "/items")],
                                budget_chars=1_000_000, budget_seconds=60)
    assert time.monotonic() - started < 5
    assert check.found == {Endpoint.of("GET", "/items"): True}
    assert check.stopped and "stopped early" in check.stopped and "1,000,000 characters" in check.stopped

    check = static_routes_check(repo_dir=tmp_path, endpoints=[Endpoint.of("GET", "/items")], budget_seconds=0)
    assert check.stopped and "s of scanning" in check.stopped


def test_a_source_tree_nested_deeper_than_the_walk_allows_stops_the_check_not_the_worker(tmp_path):
    (tmp_path / "app.py").write_text('@app.get("/items")\ndef items():\n    return []\n')
    here = tmp_path
    for _ in range(1200):
        here = here / "z"
        here.mkdir()
    check = static_routes_check(repo_dir=tmp_path, endpoints=[Endpoint.of("GET", "/items")])
    assert check.found == {Endpoint.of("GET", "/items"): True}
    assert check.stopped and "nested deeper than" in check.stopped


def test_an_ordinary_repository_is_read_whole(tmp_path):
    (tmp_path / "app.py").write_text('@app.get("/items")\ndef items():\n    return []\n')
    check = static_routes_check(repo_dir=tmp_path, endpoints=[Endpoint.of("GET", "/items")])
    assert check.found == {Endpoint.of("GET", "/items"): True} and check.stopped is None
