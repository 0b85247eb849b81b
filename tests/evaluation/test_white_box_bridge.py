"""The white-box bridge (core/engine/bridge; docs/scoring.md "The test phase", white-box suites): the verdict side runs
the hidden tests and decides every verdict with no code of the submission's; the application side sets up the
conftest's fixtures and answers. Both sides run here as plain processes of this interpreter (the sandboxed run is in
test_forged_reports.py), so each case takes a second or two."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from core.engine.whitebox import app_side_suite, conftest_fixtures, install_bridge
from core.grading.junit import Status, parse_junit
from tests.sandbox_helpers import TRACE_ASSERTS_TRUE

CONFTEST = """
import pytest
import shop

@pytest.fixture
def store():
    s = shop.Store()
    yield s
    shop.CLOSED.append(s.name)

@pytest.fixture(name="owner")
def _owner(store):
    return {"name": "ann", "store": store, "id": 7}

@pytest.fixture
def broken():
    raise RuntimeError("no database")

@pytest.fixture
def skipping():
    pytest.skip("needs a GPU")

@pytest.fixture
def bad_teardown(store):
    yield store
    raise RuntimeError("shutdown failed")
"""
SHOP = """
import enum

CLOSED = []

class Colour(str, enum.Enum):
    RED = "red"

class Store:
    name = "corner"
    def __init__(self):
        self.items = {"apple": 3}
    def count(self, item):
        return self.items[item]
    def add(self, item, n):
        self.items[item] = self.items.get(item, 0) + n
        return self.items[item]
    def colour(self):
        return Colour.RED

def closed():
    return list(CLOSED)
"""


def _run(tmp_path: Path, tests: str, shop: str = SHOP, conftest: str = CONFTEST) -> dict[str, Status]:
    """Run `tests` (tests/test_shop.py) split in two against the submission module `shop`; return each case's
    status by test name."""
    suite, repo = tmp_path / "suite", tmp_path / "repo"
    (suite / "tests").mkdir(parents=True)
    (suite / "tests" / "conftest.py").write_text(textwrap.dedent(conftest))
    (suite / "tests" / "test_shop.py").write_text(textwrap.dedent(tests))
    repo.mkdir()
    (repo / "shop.py").write_text(textwrap.dedent(shop))
    platform, app = tmp_path / "platform", tmp_path / "app"
    install_bridge(platform, "verdict")
    install_bridge(app, "app")
    stub = app_side_suite(suite, app / "suite", "tests")
    sock = tmp_path / "bridge.sock"
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"socket": str(sock), "modules": ["shop"],
                                "fixtures": conftest_fixtures(suite / "tests")}))
    base = {"PATH": os.environ["PATH"], "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    app_side = subprocess.Popen(
        [sys.executable, "-m", "rg_bridge.app_side", str(sock), str(stub), "-q", "-p", "no:cacheprovider",
         f"--rootdir={app / 'suite'}"], cwd=app / "suite", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**base, "PYTHONPATH": str(app), "RG_SUBMISSION_PATHS": str(repo)})
    report = tmp_path / "junit.xml"
    try:
        subprocess.run([sys.executable, "-m", "pytest", "tests", "-q", "-p", "no:cacheprovider", "--noconftest",
                        "-p", "rg_bridge.verdict_side", f"--junitxml={report}", f"--rootdir={suite}"],
                       cwd=suite, env={**base, "PYTHONPATH": str(platform), "RG_BRIDGE_PLAN": str(plan)},
                       capture_output=True, timeout=120)
    finally:
        app_side.kill()
        app_side.wait()
    return {case.name.rsplit("::", 1)[-1]: case.status for case in parse_junit([report]).cases}


def test_an_honest_suite_gets_its_verdicts_with_the_conftests_fixtures(tmp_path):
    statuses = _run(tmp_path, """
        import shop
        from shop import Colour

        def test_count(store):
            assert store.count("apple") == 3

        def test_add_then_count(store):
            assert store.add("pear", 2) == 2 and store.count("pear") == 2

        def test_wrong(store):
            assert store.count("apple") == 4

        def test_fixture_through_a_fixture(owner):
            assert owner["name"] == "ann" and owner["store"].count("apple") == 3 and owner["id"] == 7

        def test_teardown_ran_after_each_test():
            assert shop.closed() == ["corner"] * 4

        def test_enum_member_compares_as_its_value(store):
            assert store.colour() == "red" and store.colour() == Colour.RED and Colour.RED.value == "red"

        def test_missing_item_raises_the_builtin_error(store):
            import pytest
            with pytest.raises(KeyError):
                store.count("plum")
    """)

    assert statuses == {"test_count": Status.PASSED, "test_add_then_count": Status.PASSED,
                        "test_wrong": Status.FAILED, "test_fixture_through_a_fixture": Status.PASSED,
                        "test_teardown_ran_after_each_test": Status.PASSED,
                        "test_enum_member_compares_as_its_value": Status.PASSED,
                        "test_missing_item_raises_the_builtin_error": Status.PASSED}


def test_a_fixture_failing_at_set_up_or_teardown_or_skipping_is_the_tests_error_or_skip(tmp_path):
    statuses = _run(tmp_path, """
        def test_broken(broken):
            pass

        def test_skipping(skipping):
            pass

        def test_bad_teardown(bad_teardown):
            assert bad_teardown.count("apple") == 3

        def test_after_them(store):
            assert store.count("apple") == 3
    """)

    # a teardown that fails on the application side is the test's error, as in one pytest process (red team round 18)
    assert statuses == {"test_broken": Status.ERROR, "test_skipping": Status.SKIPPED,
                        "test_bad_teardown": Status.ERROR, "test_after_them": Status.PASSED}


#: An application whose every answer lies: values equal to anything, truthy and containing everything, and code that
#: rewrites pytest's machinery and traces assertions in its own process.
LIAR = TRACE_ASSERTS_TRUE + """
CLOSED = []

class Any(int):
    def __eq__(self, other):
        return True
    __hash__ = int.__hash__

class Everything:
    def __eq__(self, other):
        return True
    def __contains__(self, item):
        return True
    def __iter__(self):
        return iter([1])
    def __len__(self):
        return 0

try:
    from _pytest.reports import TestReport
    TestReport.passed = property(lambda self: True)
except ImportError:
    pass

class Store:
    name = "liar"
    def count(self, item):
        return Any(0)
    def everything(self):
        return Everything()

def closed():
    return []
"""


def test_an_application_that_lies_in_its_own_process_changes_no_verdict(tmp_path):
    statuses = _run(tmp_path, """
        def test_equal(store):
            assert store.count("apple") == 3

        def test_equal_object(store):
            assert store.everything() == 5

        def test_membership(store):
            assert 5 in store.everything()

        def test_length(store):
            assert len(store.everything()) == 1
    """, shop=LIAR)

    assert statuses == {"test_equal": Status.FAILED, "test_equal_object": Status.FAILED,
                        "test_membership": Status.FAILED, "test_length": Status.FAILED}


SWALLOWING = SHOP + """
class Session:
    def __enter__(self):
        return self
    def __exit__(self, *exc_info):
        return True  # would swallow any exception of the block

def session():
    return Session()
"""


def test_an_application_context_manager_cannot_swallow_a_failed_assert(tmp_path):
    """Red team round 19: the application side's `__exit__` returned True and a failed assert inside `with` passed.
    The application's context manager is closed, but the verdict side never lets it swallow the test's exception."""
    statuses = _run(tmp_path, """
        import shop

        def test_inside_with():
            with shop.session():
                assert 1 == 2

        def test_exits_cleanly():
            with shop.session() as s:
                assert s is not None
    """, shop=SWALLOWING)

    assert statuses == {"test_inside_with": Status.FAILED, "test_exits_cleanly": Status.PASSED}


def test_an_application_side_that_dies_fails_the_tests_without_hanging(tmp_path):
    statuses = _run(tmp_path, """
        def test_one(store):
            assert store.count("apple") == 3

        def test_two(store):
            assert store.count("apple") == 3
    """, shop="import os\nos._exit(3)\n")

    assert set(statuses.values()) == {Status.ERROR}


def test_the_application_sides_copy_holds_the_fixtures_but_not_the_tests(tmp_path):
    suite = tmp_path / "suite"
    (suite / "tests" / "helpers").mkdir(parents=True)
    for name in ("conftest.py", "test_a.py", "b_test.py", "helpers/data.py", "helpers/test_c.py"):
        (suite / "tests" / name).write_text("x = 1\n")

    stub = app_side_suite(suite, tmp_path / "copy", "tests")

    copied = sorted(p.relative_to(tmp_path / "copy").as_posix() for p in (tmp_path / "copy").rglob("*.py"))
    assert copied == ["tests/conftest.py", "tests/helpers/data.py", "tests/rg_bridge_stub.py"]
    assert stub == tmp_path / "copy" / "tests" / "rg_bridge_stub.py"


def test_conftest_fixture_names_are_read_from_the_syntax_tree(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "conftest.py").write_text(textwrap.dedent("""
        import pytest, pytest_asyncio
        from pytest import fixture

        @pytest.fixture
        def plain(): ...

        @pytest.fixture(scope="session", name="renamed")
        def _hidden(): ...

        @fixture
        async def bare(): ...

        @pytest_asyncio.fixture()
        async def loop_thing(): ...

        def helper(): ...

        @staticmethod
        def not_a_fixture(): ...
    """))
    (tmp_path / "sub" / "conftest.py").write_text("import pytest\n@pytest.fixture\ndef nested(): ...\n")
    (tmp_path / "sub" / "broken" ).mkdir()
    (tmp_path / "sub" / "broken" / "conftest.py").write_text("def (:\n")

    assert conftest_fixtures(tmp_path) == ["bare", "loop_thing", "nested", "plain", "renamed"]


@pytest.fixture
def wire(tmp_path):
    install_bridge(tmp_path, "verdict")
    sys.path.insert(0, str(tmp_path))
    try:
        from rg_bridge import wire as module
        yield module
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n == "rg_bridge" or n.startswith("rg_bridge.")]:
            del sys.modules[name]


@pytest.mark.parametrize("data", [
    {"$": "nope", "v": []}, {"$": "dict", "v": [[1]]}, {"$": "dict", "v": [[{"$": "list", "v": []}, 1]]},
    {"$": "list"}, {"$": "bytes", "v": "***"}, [1, 2], {"a": 1}],
    ids=["unknown-tag", "not-a-pair", "unhashable-key", "no-items", "bad-base64", "bare-list", "untagged-dict"])
def test_a_value_out_of_form_is_refused(wire, data):
    with pytest.raises(wire.BridgeError):
        wire.decode(data, lambda tagged: None)


def test_values_nested_too_deep_or_frames_too_large_are_refused(wire):
    deep: object = 1
    for _ in range(wire.MAX_DEPTH + 5):
        deep = {"$": "list", "v": [deep]}
    with pytest.raises(wire.BridgeError, match="nested"):
        wire.decode(deep, lambda tagged: None)

    left, right = socket.socketpair()
    with left, right:
        left.sendall((wire.MAX_FRAME + 1).to_bytes(4, "big"))
        with pytest.raises(wire.BridgeError, match="over the limit"):
            wire.recv(right)


def test_plain_values_cross_unchanged(wire):
    value = {"a": [1, 2.5, None, True], (1, "x"): b"\x00\xff", "s": {3}, "t": ("é", -7)}

    assert wire.decode(json.loads(json.dumps(wire.encode(value, repr))), lambda t: None) == value
