"""Forged test reports end `tampered` (docs/scoring.md "The test phase": sentinel tests). Where the report comes from a
process that runs submitted code, the submission can try to rewrite it; the platform's two sentinel tests (one must
pass, one must be skipped, random names) catch it. Attacks on what a sandbox lets a process see or write run on
both backends, attacks on the runner's rules on the local one (LOCAL_ONLY).

Real sandbox, real pytest and Maven: marked slow (and docker).
"""
from __future__ import annotations

import os
import re
import shutil
import textwrap
from pathlib import Path

import pytest

from core.engine.runner import evaluate_task
from core.engine.spec import PhaseLimits, TaskSpec
from evaluation.engine_setup import sandbox_backend, task_spec, toolchain, work_root
from catalog.services import task_reference_dir
from tests.sandbox_helpers import TRACE_ASSERTS_TRUE

pytestmark = pytest.mark.slow
PORT = 18433
LIMITS = PhaseLimits(install=120, start=10, test_case=20, test_suite=120)


@pytest.fixture(params=[pytest.param("local"), pytest.param("docker", marks=pytest.mark.docker)])
def backend(request):
    return sandbox_backend() if request.param == "local" else request.getfixturevalue("docker_backend")


#: For an attack on the runner's rules, which do not depend on the backend: the local backend only. Attacks on what
#: the sandbox lets a process see or write (white-box report rewrites, hidden-test leaks, the Maven view, the black-box
#: JVM's class path) run on both backends; the sandboxes themselves are tested in tests/hostile on both.
LOCAL_ONLY = pytest.mark.parametrize("backend", ["local"], indirect=True)


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())
    return root


#: A white-box suite: 3 tests of the submission's `calc` module, which gets 1 of them right.
WHITE_BOX_SUITE = {"tests/test_calc.py": """
    from calc import add, mul, sub

    def test_add():
        assert add(2, 3) == 5

    def test_mul():
        assert mul(2, 3) == 6

    def test_sub():
        assert sub(5, 3) == 2
"""}
CALC = """
import atexit, os, re, sys

def add(a, b):
    return a + b

def mul(a, b):
    return 0

def sub(a, b):
    return 0

{attack}
"""
#: Edits the report in place at exit: every failure, error and skip removed (every case reads as passed).
REWRITE_IN_PLACE = """
def _forge():
    path = next(a.split("=", 1)[1] for a in sys.argv if a.startswith("--junitxml="))
    text = open(path).read()
    text = re.sub(r"<(failure|error|skipped)\\b.*?(/>|</\\1>)", "", text, flags=re.S)
    text = re.sub(r'(failures|errors|skipped)="\\d+"', r'\\1="0"', text)
    open(path, "w").write(text)

atexit.register(_forge)
"""
#: Writes a fresh report at exit: the suite's three test names, all passed.
REWRITE_FRESH = """
def _forge():
    path = next(a.split("=", 1)[1] for a in sys.argv if a.startswith("--junitxml="))
    cases = "".join(f'<testcase classname="tests.test_calc" name="{n}" time="0.01"/>' for n in
                    ("test_add", "test_mul", "test_sub"))
    open(path, "w").write(f'<?xml version="1.0"?><testsuites><testsuite name="pytest" tests="3" failures="0" '
                          f'errors="0" skipped="0">{cases}</testsuite></testsuites>')

atexit.register(_forge)
"""
#: A pytest plugin registered at import: the suite's own test names (public with the benchmark) reported passed,
#: every other case (the platform's sentinels) left as it ran.
FLIP_KNOWN_NAMES = """
import gc, pytest
from _pytest.config import Config

class _Flip:
    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        if item.name in ("test_add", "test_mul", "test_sub"):
            report.outcome, report.longrepr = "passed", None

next(o for o in gc.get_objects() if isinstance(o, Config)).pluginmanager.register(_Flip())
"""
#: pytest's own test-call function replaced at import: the suite's known tests are not run at all.
SKIP_KNOWN_BODIES = """
import _pytest.python
_real = _pytest.python.Function.runtest

def _runtest(self):
    if self.name not in ("test_add", "test_mul", "test_sub"):
        _real(self)

_pytest.python.Function.runtest = _runtest
"""
#: The report object's constructor wrapped at import (red team round 5): the suite's cases (node ids with a file
#: part) passed, the platform's sentinels (node ids without one) left alone.
PATCH_REPORT_INIT = """
import _pytest.reports
_init = _pytest.reports.TestReport.__init__

def _forged(self, nodeid, *args, **kwargs):
    _init(self, nodeid, *args, **kwargs)
    if ".py::" in str(nodeid):
        self.outcome, self.longrepr = "passed", None

_pytest.reports.TestReport.__init__ = _forged
"""
#: A hook that flips verdicts, registered only once the first hidden test calls the submission (after the first
#: sentinels ran).
FLIP_LATE = f"""
_armed = []

def _arm():
    if _armed:
        return
    _armed.append(1)
    exec(compile({FLIP_KNOWN_NAMES!r}, "late", "exec"), {{}})

_add = add
def add(a, b):
    _arm()
    return _add(a, b)
"""
#: The test client's request replaced at import by one answering an object equal to anything (red team round 10,
#: on Blog's FastAPI suite: 20/20 for no code); unittest's assertions silenced alike.
PATCH_CLIENT = """
import unittest

class _Any:
    def __eq__(self, other):
        return True

try:
    from starlette.testclient import TestClient
    TestClient.request = lambda self, *a, **k: _Any()
except ImportError:
    pass
unittest.TestCase.assertEqual = lambda self, *a, **k: None
"""
#: The sentinel plugin's own check replaced through sys.modules, then the reports flipped (red team round 11).
DISARM_PLUGIN = """
for _module in list(sys.modules.values()):
    if hasattr(_module, "_Sentinel") and hasattr(_module, "_intact"):
        _module._intact = lambda config: True
""" + PATCH_REPORT_INIT
#: The code of the suite's test functions swapped for a no-op by the first call into the submission (red team round
#: 11: Blog's application did it in its lifespan, after collection and before any test body ran).
BLANK_TEST_BODIES = """
import gc

def _noop(*args, **kwargs):
    return None

_real_add = add
def add(a, b):
    for obj in gc.get_objects():
        if type(obj).__name__ == "function" and obj.__name__.startswith("test_") and obj.__name__ != "test_add":
            obj.__code__ = _noop.__code__
    return _real_add(a, b)
"""
#: The suite's test files rewritten on disk before pytest collects them (red team round 12, on Blog: the application,
#: imported by the suite's conftest, replaced every test body with `pass`, 20/20 for a service with no routes): each
#: file replaced in place, else the suite's folder swapped for a rewritten copy.
REWRITE_SUITE_ON_DISK = """
import shutil

def _blank(text):
    return re.sub(r"(def test_\\w+\\(\\):\\n)(    .*\\n?)+", r"\\1    pass\\n", text)

_suite = os.getcwd()
_tests = os.path.join(_suite, "tests", "test_calc.py")
try:
    with open(_tests + ".tmp", "w") as _f:
        _f.write(_blank(open(_tests).read()))
    os.replace(_tests + ".tmp", _tests)
except OSError:
    try:
        os.rename(_suite, _suite + ".real")
        shutil.copytree(_suite + ".real", _suite)
        with open(_tests, "w") as _f:
            _f.write(_blank(open(_tests).read()))
    except OSError:
        pass
"""
SERVICE = "import http.server, os\nhttp.server.ThreadingHTTPServer(('127.0.0.1', int(os.environ['PORT'])), " \
          "http.server.SimpleHTTPRequestHandler).serve_forever()\n"


def _white_box(tmp_path: Path, backend, attack: str, suite: dict[str, str] = WHITE_BOX_SUITE,
               extra: dict[str, str] | None = None):
    hidden = write_tree(tmp_path / "hidden", suite)
    repo = write_tree(tmp_path / "repo", {"calc.py": CALC.format(attack=attack), "app.py": SERVICE,
                                          "start.sh": "exec python3 app.py\n", **(extra or {})})
    spec = TaskSpec(name="Calc", language="python", port=PORT, hidden_dir=hidden, tests_total=3, limits=LIMITS)
    return evaluate_task(spec=spec, repo_src=repo, backend=backend, work_root=work_root(), toolchain=toolchain())


def test_an_honest_white_box_submission_is_scored_as_the_tests_ran(tmp_path, backend):
    result = _white_box(tmp_path, backend, attack="")

    assert (result.outcome, result.tests_passed, result.tests_total) == ("tests_failed", 1, 3)
    assert {c.name for c in result.cases} == {"tests.test_calc::test_add", "tests.test_calc::test_mul",
                                              "tests.test_calc::test_sub"}  # the sentinels are not counted


@pytest.mark.parametrize(("backend", "attack"), [
    ("local", REWRITE_IN_PLACE), pytest.param("docker", REWRITE_IN_PLACE, marks=pytest.mark.docker),
    ("local", REWRITE_FRESH), ("local", FLIP_KNOWN_NAMES), ("local", SKIP_KNOWN_BODIES), ("local", PATCH_REPORT_INIT),
    ("local", FLIP_LATE), ("local", PATCH_CLIENT), ("local", DISARM_PLUGIN), ("local", BLANK_TEST_BODIES)],
    ids=["local-rewrite-in-place", "docker-rewrite-in-place", "rewrite-fresh", "flip-known-names",
         "skip-known-bodies", "patch-report-init", "flip-late", "patch-client", "disarm-plugin", "blank-test-bodies"],
    indirect=["backend"])
def test_a_white_box_submission_forging_its_run_from_inside_is_scored_as_the_tests_ran(tmp_path, backend, attack):
    """The hidden tests and pytest run in a process of their own where none of the submission's code runs (the
    bridge, core/engine/bridge): what the application patches, rewrites or registers in its own process changes no
    verdict, so each attack gets the honest 1 of 3."""
    result = _white_box(tmp_path, backend, attack=attack)

    assert (result.outcome, result.tests_passed, result.tests_total) == ("tests_failed", 1, 3), result.detail


#: Red team round 15's white-box forgeries, each its own version. A pytest plugin registered by an entry point of a
#: dist-info folder at the submission's root (pytest's autoload would load it: the root is on sys.path).
FLIP_REPORTS = """
import pytest

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed and "tests" in report.nodeid:
        report.outcome = "passed"
"""
ENTRY_POINT_PLUGIN = {"rgforge-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: rgforge\nVersion: 1.0\n",
                      "rgforge-1.0.dist-info/entry_points.txt": "[pytest11]\nrgforge = rgforge_plugin\n",
                      "rgforge_plugin.py": FLIP_REPORTS}
#: A module of a name `requests` imports optionally (the runner has no simplejson): it would run inside the sentinel
#: plugin's own `import requests`, before its baselines, and patch pytest's report class.
OPTIONAL_IMPORT_SHADOW = {"simplejson.py": """
import json
from json import *  # noqa: F401,F403 - what requests takes from it
from _pytest.reports import TestReport

_real = TestReport.from_item_and_call.__func__

def _forged(cls, item, call):
    report = _real(cls, item, call)
    if report.failed and "tests" in report.nodeid:
        report.outcome = "passed"
    return report

TestReport.from_item_and_call = classmethod(_forged)
JSONDecodeError = json.JSONDecodeError
"""}
#: The JUnit writer object (no module or class member) patched while the tests run: failures written as passes.
PATCH_WRITER_OBJECT = """
import gc as _gc
for _obj in _gc.get_objects():
    if type(_obj).__name__ == "LogXML":
        _open = _obj.node_reporter
        def _reporter(report, _open=_open):
            reporter = _open(report)
            reporter.append_failure = reporter.append_pass
            return reporter
        _obj.node_reporter = _reporter
"""
#: An exit hook that strips the failures of the suite's own cases only, sparing the sentinel cases.
SPARE_THE_SENTINELS = """
def _spare():
    path = next(a.split("=", 1)[1] for a in sys.argv if a.startswith("--junitxml="))
    text = open(path).read()
    text = re.sub(r'(<testcase classname="tests[^>]*>)\\s*<failure.*?</failure>', r"\\1", text, flags=re.S)
    open(path, "w").write(text)
atexit.register(_spare)
"""


#: Round 17: builtins every check would call replaced by liars (`any` always false, `all` always true).
LYING_BUILTINS = """
import builtins
builtins.any = lambda iterable: False
builtins.all = lambda iterable: True
"""
#: Round 17: pytest's assertion rewriter patched so every assert of a test module compiled later becomes `pass`.
REWRITER_PATCH = """
try:
    import ast as _ast
    from _pytest.assertion.rewrite import AssertionRewriter
    AssertionRewriter.visit_Assert = lambda self, node: [_ast.Pass()]
except ImportError:
    pass
"""
#: Rounds 10, 16 and 17: the answers themselves equal to anything (an int subclass and a class whose == is true).
EQUAL_TO_ANYTHING = """
class _Any(int):
    def __eq__(self, other):
        return True
    __hash__ = int.__hash__

_real_sub = sub
def sub(a, b):
    return _Any(_real_sub(a, b))
"""


@pytest.mark.parametrize(("attack", "extra"), [
    ("", ENTRY_POINT_PLUGIN), ("", OPTIONAL_IMPORT_SHADOW), (PATCH_WRITER_OBJECT, None), (SPARE_THE_SENTINELS, None),
    (TRACE_ASSERTS_TRUE, None), (LYING_BUILTINS, None), (REWRITER_PATCH, None), (EQUAL_TO_ANYTHING, None)],
    ids=["entry-point-plugin", "optional-import-shadow", "patch-writer-object", "spare-the-sentinels",
         "trace-asserts-true", "lying-builtins", "rewriter-patch", "equal-to-anything"])
@LOCAL_ONLY
def test_round_15_to_17_white_box_forgeries_are_scored_as_the_tests_ran(tmp_path, backend, attack, extra):
    """Red team rounds 15 to 17 forged white-box runs from inside the test process: a plugin, pytest's report class,
    the JUnit writer, an exit hook, a trace function setting pytest's assert results true, lying builtins, a patched
    assertion rewriter, values equal to anything. The tests now run where none of that code runs: the honest 1 of 3.
    """
    result = _white_box(tmp_path, backend, attack=attack, extra=extra)

    assert (result.outcome, result.tests_passed, result.tests_total) == ("tests_failed", 1, 3), result.detail


@pytest.mark.parametrize("backend", ["local", pytest.param("docker", marks=pytest.mark.docker)], indirect=True)
def test_a_white_box_submission_cannot_rewrite_the_hidden_tests_before_they_are_collected(tmp_path, backend):
    """The suite's folder is the platform's (root's, read-only for the runner, which writes its reports only):
    neither the files nor the folder can be replaced by the application the suite's conftest imports."""
    suite = {**WHITE_BOX_SUITE, "tests/conftest.py": "import calc\n"}
    result = _white_box(tmp_path, backend, attack=REWRITE_SUITE_ON_DISK, suite=suite)

    assert (result.outcome, result.tests_passed, result.tests_total) == ("tests_failed", 1, 3), result.detail


# --- Java: the build forges the run -----------------------------------------------------------------------------
@pytest.fixture
def inventory(demo_split, tmp_path):
    task = demo_split.tasks.get(name="InventoryService")
    repo = tmp_path / "InventoryService"
    shutil.copytree(task_reference_dir(task), repo)
    return task, repo


def _pom(repo: Path, old: str, new: str) -> None:
    text = (repo / "pom.xml").read_text()
    assert old in text
    (repo / "pom.xml").write_text(text.replace(old, new, 1))


@LOCAL_ONLY
def test_a_pom_pointing_the_test_sources_at_its_own_tests_changes_nothing(in_process, backend):
    """Issue 15, escape 1a: the hidden tests are compiled and run by the platform's pom (core.engine.test_pom), so
    the submission's testSourceDirectory is never read: its 15 empty tests do not run, the hidden ones fail against
    a service with no route as they really do."""
    spec, repo = in_process
    _no_route_attack(repo, NO_ATTACK)
    _pom(repo, "<build>", "<build><testSourceDirectory>src/own-tests/java</testSourceDirectory>")
    methods = "".join(f"@org.junit.jupiter.api.Test void t{i}() {{}}\n" for i in range(15))
    write_tree(repo, {"src/own-tests/java/OwnTest.java": f"public class OwnTest {{\n{methods}}}\n"})

    result = evaluate_task(spec=spec, repo_src=repo, backend=backend, work_root=work_root(), toolchain=toolchain())

    assert (result.outcome, result.tests_passed, result.tests_total) == ("tests_failed", 0, 3), result.detail



#: A build step (exec-maven-plugin, fetched from Central) that breaks the test machinery in the Maven repository the
#: build writes: the JUnit engine and launcher jars emptied (valid, empty archives), surefire's JUnit provider too, and an artifact planted
#: that Central never published. A test run loading any of it could not run a single test (or, with a forged engine
#: instead of an empty file, would report whatever the submission liked).
POISON_SCRIPT = ("m2='${settings.localRepository}'; "
                 "for f in $(find \"$m2/org/junit\" \"$m2/org/apache/maven/surefire\" -name 'junit-jupiter-engine-*.jar'"
                 " -o -name 'junit-platform-launcher-*.jar' -o -name 'junit-platform-engine-*.jar'"
                 " -o -name 'surefire-junit-platform-*.jar'); do printf 'PK\\005\\006%018d' 0 | tr 0 '\\000' &gt; \"$f\"; done; "
                 "mkdir -p \"$m2/org/example/planted/1.0\"; echo forged &gt; \"$m2/org/example/planted/1.0/planted-1.0.jar\"")
POISON_REPOSITORY = f"""<plugins><plugin><groupId>org.codehaus.mojo</groupId><artifactId>exec-maven-plugin</artifactId>
      <version>3.5.0</version><executions><execution><id>poison</id><phase>generate-sources</phase>
      <goals><goal>exec</goal></goals><configuration><executable>sh</executable><arguments><argument>-c</argument>
      <argument>{POISON_SCRIPT}</argument></arguments></configuration></execution></executions></plugin>"""


@LOCAL_ONLY
def test_test_machinery_broken_in_the_builds_maven_repository_never_reaches_the_test_run(inventory, backend):
    task, repo = inventory
    _pom(repo, "<plugins>", POISON_REPOSITORY)

    result = evaluate_task(spec=task_spec(task), repo_src=repo, backend=backend, work_root=work_root(),
                           toolchain=toolchain())

    # the hidden tests ran on the platform's own JUnit and surefire (core.engine.maven_verify): all 15 pass
    assert (result.outcome, result.tests_passed, result.tests_total) == ("passed", 15, 15), result.detail
    assert "org/example/planted/1.0/planted-1.0.jar" in result.logs["build"]



#: A build step that writes a class of the hidden test's name (15 empty tests) into src/test and compiles it with
#: the build: were a class file of the build's used, the hidden suite would read 15 of 15.
REWRITE_HIDDEN = ("d=src/test/java/com/example/inventory; mkdir -p $d; f=$d/InventoryApiTest.java; "
                  "printf 'package com.example.inventory;\\npublic class InventoryApiTest {\\n' &gt; \"$f\"; "
                  "for i in $(seq 15); do printf '@org.junit.jupiter.api.Test void t%s() {}\\n' $i &gt;&gt; \"$f\"; done; "
                  "echo '}' &gt;&gt; \"$f\"")


def test_hidden_tests_rewritten_by_the_build_are_compiled_again_from_the_benchmark(inventory, backend):
    task, repo = inventory
    _pom(repo, "<plugins>", POISON_REPOSITORY.replace(POISON_SCRIPT, REWRITE_HIDDEN)
         .replace("generate-sources", "generate-test-sources"))
    router = repo / "src/main/java/com/example/inventory/Router.java"
    router.write_text(router.read_text().replace('case "DELETE" -> deleteItem(ex, id);', ""))  # DELETE now 405

    result = evaluate_task(spec=task_spec(task), repo_src=repo, backend=backend, work_root=work_root(),
                           toolchain=toolchain())

    # the runner compiled the benchmark's own InventoryApiTest: the DELETE tests fail as they would unforged
    assert result.outcome == "tests_failed", result.detail
    assert 0 < result.tests_passed < 15 and result.tests_total == 15
    assert not any(case.name.endswith(("::t1", "::t1()")) for case in result.cases)


SKIP_BODIES = {
    "src/main/resources/META-INF/services/org.junit.jupiter.api.extension.Extension":
        "com.example.inventory.SkipBodies\n",
    "src/main/java/com/example/inventory/SkipBodies.java": """
        package com.example.inventory;

        import java.lang.reflect.Method;
        import org.junit.jupiter.api.extension.*;

        public class SkipBodies implements InvocationInterceptor {
            @Override
            public void interceptTestMethod(Invocation<Void> invocation,
                    ReflectiveInvocationContext<Method> context, ExtensionContext extension) {
                invocation.skip();
            }
        }
    """,
}


def _plant_skip_bodies(repo: Path) -> None:
    """An extension that skips every test body, listed for autodetection (the reference service stays intact, so
    the hidden tests' real result is 15 of 15; the extension would report them passed without running them)."""
    _pom(repo, "<dependencies>", """<dependencies><dependency><groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter-api</artifactId><version>${junit.version}</version></dependency>""")
    write_tree(repo, SKIP_BODIES)


@LOCAL_ONLY
def test_a_junit_extension_planted_in_main_resources_never_runs_around_the_hidden_tests(inventory, backend):
    task, repo = inventory
    _plant_skip_bodies(repo)
    write_tree(repo, {"src/main/resources/junit-platform.properties":
                      "junit.jupiter.extensions.autodetection.enabled=true\n"})

    result = evaluate_task(spec=task_spec(task), repo_src=repo, backend=backend, work_root=work_root(),
                           toolchain=toolchain())

    # autodetection stays off (runner.JUNIT_PLATFORM_PROPERTIES): the hidden tests ran, and so did the sentinels
    assert (result.outcome, result.tests_passed, result.tests_total) == ("passed", 15, 15), result.detail


@LOCAL_ONLY
def test_a_junit_extension_forced_on_by_the_pom_never_runs(in_process, backend):
    """The pom's surefire settings (argLine, system properties, configuration parameters) are not the test run's:
    the extension's service entry is also gone from the runner's copy. Against a service with no route the hidden
    tests fail as they really ran."""
    spec, repo = in_process
    _no_route_attack(repo, NO_ATTACK)
    _plant_skip_bodies(repo)
    _pom(repo, "<artifactId>maven-surefire-plugin</artifactId>\n        <version>3.2.5</version>",
         """<artifactId>maven-surefire-plugin</artifactId>
        <version>3.2.5</version>
        <configuration>
          <argLine>-Djunit.jupiter.extensions.autodetection.enabled=true</argLine>
          <systemPropertyVariables><junit.jupiter.extensions.autodetection.enabled>true</junit.jupiter.extensions.autodetection.enabled></systemPropertyVariables>
          <configurationParameters>junit.jupiter.extensions.autodetection.enabled = true</configurationParameters>
        </configuration>""")

    result = evaluate_task(spec=spec, repo_src=repo, backend=backend, work_root=work_root(), toolchain=toolchain())

    assert (result.outcome, result.tests_passed, result.tests_total) == ("tests_failed", 0, 3), result.detail


def test_a_build_copying_the_hidden_tests_into_its_output_leaks_nothing_to_the_service(inventory):
    task, repo = inventory
    # An extra resources execution copies src/test into target/classes; start.sh prints what it got into the start
    # log the team reads. The build is given the sentinel class alone: the hidden tests are never there to copy.
    _pom(repo, "<plugins>", """<plugins><plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version>
      <executions><execution><id>leak</id><phase>process-test-resources</phase><goals><goal>copy-resources</goal></goals>
      <configuration><outputDirectory>${project.build.outputDirectory}/leak</outputDirectory>
      <resources><resource><directory>src/test/java</directory></resource></resources></configuration>
      </execution></executions></plugin>""")
    start = repo / "start.sh"
    start.write_text(start.read_text().replace("exec java", "(find target/classes/leak -type f -exec cat {} + ; "
                                                            "ls -R target/classes/leak) || true\nexec java", 1))

    result = evaluate_task(spec=task_spec(task), repo_src=repo, backend=sandbox_backend(), work_root=work_root(),
                           toolchain=toolchain())

    hidden_source = next((task_spec(task).hidden_dir / "src" / "test").rglob("*.java")).read_text()
    assert "@Test" in hidden_source
    assert hidden_source.splitlines()[-3] not in result.logs["start"]
    assert "InventoryApiTest" not in result.logs["start"]  # only the sentinel class was there to copy
    assert result.outcome == "passed", result.detail


def test_symlinked_build_folders_touch_no_host_folder(inventory, tmp_path):
    task, repo = inventory
    host = tmp_path / "host-folder"
    for rel in ("test/keep.txt", "test-classes/keep.txt", "surefire-reports/keep.txt"):
        (host / rel).parent.mkdir(parents=True, exist_ok=True)
        (host / rel).write_text("must survive")
    # The submission ships `src/test` and `target/test-classes` as links to a host folder: the platform, as root,
    # replaces src/test and removes the build's test output; it must remove the links, never what they point at.
    (repo / "src" / "test").symlink_to(host)
    (repo / "target").mkdir()
    (repo / "target" / "test-classes").symlink_to(host / "test-classes")
    (repo / "target" / "surefire-reports").symlink_to(host / "surefire-reports")

    result = evaluate_task(spec=task_spec(task), repo_src=repo, backend=sandbox_backend(), work_root=work_root(),
                           toolchain=toolchain())

    assert result.outcome in ("passed", "build_failed"), result.detail  # a dangling link may break the build
    assert sorted(p.relative_to(host).as_posix() for p in host.rglob("*")) == [
        "surefire-reports", "surefire-reports/keep.txt", "test", "test-classes", "test-classes/keep.txt",
        "test/keep.txt"]


def test_a_link_the_build_leaves_for_the_platforms_scratch_build_touches_no_host_file(inventory, tmp_path):
    """Red team round 15b: the build made the platform's scratch folder for its own test build (then in the build's
    env folder) a link to a host folder, which root then chmod-ed and wrote its pom into. The scratch folder is now
    the platform's, made new in the work root. (A FIFO at a dependency's jar: test_test_run_integrity.)"""
    task, repo = inventory
    victim = tmp_path / "victim"
    victim.mkdir(mode=0o700)
    (victim / "keep.txt").write_text("must survive")
    script = f"ln -s {victim} ${{project.basedir}}/../env/test-build; true"
    _pom(repo, "<plugins>", POISON_REPOSITORY.replace(POISON_SCRIPT, script))

    result = evaluate_task(spec=task_spec(task), repo_src=repo, backend=sandbox_backend(), work_root=work_root(),
                           toolchain=toolchain())

    assert sorted(p.name for p in victim.iterdir()) == ["keep.txt"]
    assert (victim.stat().st_mode & 0o777) == 0o700
    assert (result.outcome, result.tests_passed) == ("passed", 15), result.detail


def test_a_fifo_in_the_repository_is_left_out_not_a_crash(inventory):
    task, repo = inventory
    (repo / "target").mkdir()
    os.mkfifo(repo / "target" / "pipe")

    result = evaluate_task(spec=task_spec(task), repo_src=repo, backend=sandbox_backend(), work_root=work_root(),
                           toolchain=toolchain())

    assert result.outcome == "passed", result.detail


NOTHING_SERVED = "#!/usr/bin/env bash\ncd \"$(dirname \"${BASH_SOURCE[0]}\")\"\nexec python3 -m http.server \"${PORT:-8090}\" --bind 127.0.0.1\n"


def _junit_in_main_scope(repo: Path) -> None:
    _pom(repo, "<artifactId>junit-jupiter</artifactId>\n      <version>${junit.version}</version>\n      <scope>test</scope>",
         "<artifactId>junit-jupiter</artifactId>\n      <version>${junit.version}</version>")


@LOCAL_ONLY
def test_surefire_includes_that_would_run_the_submissions_own_tests_instead_change_nothing(in_process, backend):
    """A service with no route; its pom would run only tests of its own (15 empty ones, copied next to the hidden
    test classes) and the sentinels. The platform's surefire runs the classes it compiled, with its own includes."""
    spec, repo = in_process
    _no_route_attack(repo, NO_ATTACK)
    _junit_in_main_scope(repo)
    write_tree(repo, {"src/main/java/zz/FakeTest.java":
                          "package zz;\npublic class FakeTest { @org.junit.jupiter.api.RepeatedTest(15) void forged() {} }\n"})
    _pom(repo, "<artifactId>maven-surefire-plugin</artifactId>\n        <version>3.2.5</version>",
         """<artifactId>maven-surefire-plugin</artifactId>
        <version>3.2.5</version>
        <configuration><includes><include>Rg*Test.java</include><include>zz/*.java</include></includes></configuration>""")
    _pom(repo, "<executions>", """<executions>
          <execution><id>plant-tests</id><phase>process-test-resources</phase><goals><goal>copy-resources</goal></goals>
            <configuration><outputDirectory>${project.build.testOutputDirectory}/zz</outputDirectory>
              <resources><resource><directory>${project.build.outputDirectory}/zz</directory></resource></resources>
            </configuration></execution>""")

    result = evaluate_task(spec=spec, repo_src=repo, backend=backend, work_root=work_root(), toolchain=toolchain())

    assert (result.outcome, result.tests_passed, result.tests_total) == ("tests_failed", 0, 3), result.detail
    assert not any("FakeTest" in case.name for case in result.cases)


@LOCAL_ONLY
def test_an_exception_swallowing_extension_enabled_by_configuration_parameters_forges_nothing(in_process, backend):
    """JUnit ranks surefire's configurationParameters above a system property; the pom's are not the test run's
    (the platform's pom sets its own), the extension's service entry is gone from the runner's copy, and a
    swallowing extension would also flip the must-fail sentinel. The hidden tests run against a service with no
    route: 0 passed, as they really ran."""
    spec, repo = in_process
    _no_route_attack(repo, NO_ATTACK)
    _junit_in_main_scope(repo)
    write_tree(repo, {
        "src/main/resources/META-INF/services/org.junit.jupiter.api.extension.Extension": "zz.Swallow\n",
        "src/main/java/zz/Swallow.java": """package zz;
            import org.junit.jupiter.api.extension.*; import org.opentest4j.TestAbortedException;
            public class Swallow implements TestExecutionExceptionHandler {
              public void handleTestExecutionException(ExtensionContext c, Throwable t) throws Throwable {
                if (t instanceof TestAbortedException) throw t; } }
        """})
    _pom(repo, "<artifactId>maven-surefire-plugin</artifactId>\n        <version>3.2.5</version>",
         """<artifactId>maven-surefire-plugin</artifactId>
        <version>3.2.5</version>
        <configuration><properties><configurationParameters>junit.jupiter.extensions.autodetection.enabled=true</configurationParameters></properties></configuration>""")

    result = evaluate_task(spec=spec, repo_src=repo, backend=backend, work_root=work_root(), toolchain=toolchain())

    assert (result.outcome, result.tests_passed, result.tests_total) == ("tests_failed", 0, 3), result.detail


@LOCAL_ONLY
def test_a_test_output_folder_of_the_poms_own_never_holds_the_hidden_tests(inventory, backend):
    task, repo = inventory
    _pom(repo, "<build>", "<build><testOutputDirectory>${project.build.directory}/tc</testOutputDirectory>")
    start = (repo / "start.sh").read_text()
    (repo / "start.sh").write_text(start.replace("exec java", "for f in $(find target/tc -name '*.class'); do echo "
                                                 "\"LEAK $f $(base64 -w0 \"$f\")\"; done\nexec java", 1))

    result = evaluate_task(spec=task_spec(task), repo_src=repo, backend=backend, work_root=work_root(),
                           toolchain=toolchain())

    # the build compiled the sentinel class alone there; the platform compiles the hidden tests in its own project
    assert (result.outcome, result.tests_passed, result.tests_total) == ("passed", 15, 15), result.detail
    assert "LEAK" in result.logs["start"] and "InventoryApiTest" not in result.logs["start"]


@LOCAL_ONLY
def test_the_submissions_maven_jvm_settings_never_reach_the_hidden_test_run(inventory, backend):
    """.mvn/ would put options (red team round 4: a Java agent in jvm.config) into the Maven process of the test run:
    the runner's project has no .mvn, so a maven.config that skips every test changes nothing."""
    task, repo = inventory
    # written by the build itself (so the build's own Maven never reads it), for the test run's Maven to pick up
    write_tree(repo, {"later/maven.config": "-Dmaven.test.skip=true\n"})
    _pom(repo, "<executions>", """<executions>
          <execution><id>arm</id><phase>process-classes</phase><goals><goal>copy-resources</goal></goals>
            <configuration><outputDirectory>${project.basedir}/.mvn</outputDirectory>
              <resources><resource><directory>${project.basedir}/later</directory></resource></resources>
            </configuration></execution>""")

    result = evaluate_task(spec=task_spec(task), repo_src=repo, backend=backend, work_root=work_root(),
                           toolchain=toolchain())

    assert (result.outcome, result.tests_passed, result.tests_total) == ("passed", 15, 15), result.detail


@LOCAL_ONLY
@pytest.mark.parametrize("attack", ["shadowed-junit-class", "agent-in-argline", "processor-path-of-its-own",
                                    "javac-of-its-own", "test-resources-from-outside", "processor-by-name"])
def test_a_build_that_would_rewrite_the_hidden_test_run_changes_nothing_or_is_tampered(in_process, backend, attack):
    """The pom's compiler and surefire settings are not the test run's (core.engine.test_pom): against a service
    with no route the hidden tests fail as they really ran. A class of the test machinery among the submission's
    classes, which are on the test class path, is tampered."""
    spec, repo = in_process
    _no_route_attack(repo, NO_ATTACK)
    if attack == "shadowed-junit-class":  # JUnit's own result class replaced from the submission's classes
        write_tree(repo, {"src/main/java/org/junit/platform/engine/Shadow.java":
                          "package org.junit.platform.engine;\npublic class Shadow {}\n"})
    elif attack == "agent-in-argline":
        _pom(repo, "<artifactId>maven-surefire-plugin</artifactId>\n        <version>3.2.5</version>",
             "<artifactId>maven-surefire-plugin</artifactId>\n        <version>3.2.5</version>\n"
             "        <configuration><argLine>-javaagent:${project.basedir}/lib/agent.jar</argLine></configuration>")
    elif attack == "processor-by-name":  # found on the class path, i.e. in the submission's classes (round 6)
        _pom(repo, "<release>17</release>\n        </configuration>", "<release>17</release>\n        </configuration>"
             "<executions><execution><id>default-testCompile</id><configuration><annotationProcessors>"
             "<annotationProcessor>zz.Proc</annotationProcessor></annotationProcessors></configuration></execution>"
             "</executions>")
        write_tree(repo, {"src/main/java/zz/Proc.java": """package zz;
            import java.util.Set; import javax.annotation.processing.*; import javax.lang.model.element.TypeElement;
            @SupportedAnnotationTypes("*") public class Proc extends AbstractProcessor {
              public boolean process(Set<? extends TypeElement> a, RoundEnvironment r) { return false; } }
        """})
    elif attack in ("processor-path-of-its-own", "javac-of-its-own"):  # code run by the runner's javac
        hook = ("<compilerArgs><arg>-processorpath</arg><arg>${project.build.outputDirectory}</arg></compilerArgs>"
                if attack == "processor-path-of-its-own" else "<fork>true</fork><executable>./javac</executable>")
        _pom(repo, "<release>17</release>", f"<release>17</release>{hook}")
        write_tree(repo, {"javac": "#!/bin/sh\nexec javac \"$@\"\n"})  # the build itself compiles through it
        (repo / "javac").chmod(0o755)
    else:  # test resources read from the service's folder, which the running service writes (red team round 5)
        _pom(repo, "<build>", "<build><testResources><testResource><directory>${project.basedir}/../../repo/dyn"
                              "</directory></testResource></testResources>")
    result = evaluate_task(spec=spec, repo_src=repo, backend=backend, work_root=work_root(), toolchain=toolchain())

    expected = "tampered" if attack == "shadowed-junit-class" else "tests_failed"
    assert (result.outcome, result.tests_passed, result.tests_total) == (expected, 0, 3), result.detail


#: A JUnit engine of the submission's: every @Test method of a selected class (the platform's sentinel class spared)
#: reported passed without running, under the hidden class's own name.
FAKE_ENGINE = """package zz;
import java.lang.reflect.Method;
import org.junit.platform.engine.*;
import org.junit.platform.engine.discovery.ClassSelector;
import org.junit.platform.engine.support.descriptor.*;
public class Engine implements TestEngine {
  public String getId() { return "zz"; }
  public TestDescriptor discover(EngineDiscoveryRequest request, UniqueId id) {
    EngineDescriptor root = new EngineDescriptor(id, "zz");
    for (ClassSelector selector : request.getSelectorsByType(ClassSelector.class)) {
      Class<?> type = selector.getJavaClass();
      if (type.getSimpleName().startsWith("Rg")) continue;
      for (Method m : type.getDeclaredMethods()) {
        if (!m.isAnnotationPresent(org.junit.jupiter.api.Test.class)) continue;
        root.addChild(new AbstractTestDescriptor(id.append("m", type.getName() + "#" + m.getName()), m.getName(),
            MethodSource.from(m)) { public Type getType() { return Type.TEST; } });
      }
    }
    return root;
  }
  public void execute(ExecutionRequest request) {
    EngineExecutionListener listener = request.getEngineExecutionListener();
    listener.executionStarted(request.getRootTestDescriptor());
    for (TestDescriptor test : request.getRootTestDescriptor().getChildren()) {
      listener.executionStarted(test);
      listener.executionFinished(test, TestExecutionResult.successful());
    }
    listener.executionFinished(request.getRootTestDescriptor(), TestExecutionResult.successful());
  }
}
"""


@LOCAL_ONLY
def test_a_test_engine_of_the_submissions_behind_a_symlinked_services_folder_reports_nothing(inventory, backend):
    """Red team round 5, E1: the JVM follows a symlinked META-INF/services that the tree checks do not; the runner's
    copy has no links, and surefire runs the Jupiter engine alone. Against a service that serves nothing the hidden
    tests fail as they really ran."""
    task, repo = inventory
    _junit_in_main_scope(repo)
    _pom(repo, "<dependencies>", """<dependencies><dependency><groupId>org.junit.platform</groupId>
      <artifactId>junit-platform-engine</artifactId><version>1.10.2</version></dependency>""")
    write_tree(repo, {"start.sh": NOTHING_SERVED, "src/main/java/zz/Engine.java": FAKE_ENGINE,
                      "svc/org.junit.platform.engine.TestEngine": "zz.Engine\n"})
    (repo / "target/classes/META-INF").mkdir(parents=True)
    (repo / "target/classes/META-INF/services").symlink_to("../../../svc")

    result = evaluate_task(spec=task_spec(task), repo_src=repo, backend=backend, work_root=work_root(),
                           toolchain=toolchain())

    assert (result.outcome, result.tests_passed, result.tests_total) == ("tests_failed", 0, 15), result.detail


#: A build step that prints whatever lies in src/test and target/test-classes into the build log and keeps a copy
#: for start.sh to print: the hidden tests, were they there while the build ran.
LEAK_EVERYTHING = ("for f in $(find src/test target/test-classes -type f 2&gt;/dev/null); do echo \"LEAK $f\"; "
                   "sed 's/^/LEAK| /' \"$f\"; done; mkdir -p stash; cp -r src/test stash/ 2&gt;/dev/null; true")


def test_the_build_and_the_service_never_see_the_hidden_tests(inventory, backend):
    """Red team round 5, E3: the build gets the sentinel class alone; the hidden tests exist only in the runner's copy."""
    task, repo = inventory
    _pom(repo, "<plugins>", POISON_REPOSITORY.replace(POISON_SCRIPT, LEAK_EVERYTHING)
         .replace("generate-sources", "test-compile"))
    start = (repo / "start.sh").read_text()
    (repo / "start.sh").write_text(start.replace("exec java", "find stash -type f -exec cat {} +\nexec java", 1))

    result = evaluate_task(spec=task_spec(task), repo_src=repo, backend=backend, work_root=work_root(),
                           toolchain=toolchain())

    assert (result.outcome, result.tests_passed, result.tests_total) == ("passed", 15, 15), result.detail
    shown = result.logs["build"] + result.logs.get("start", "")
    assert "LEAK" in shown  # the step ran: it printed the sentinel class, the only test the build is given
    assert "InventoryApiTest" not in shown and "assertEquals" not in shown


@LOCAL_ONLY
def test_test_resources_written_over_the_hidden_sources_never_reach_the_compiler(inventory, backend):
    """Red team round 6: a testResource whose targetPath is the hidden test's source folder, carrying a class of the
    hidden test's name with 15 empty tests. The runner copies the benchmark's test resources itself (no resources
    plugin of the pom runs) and checks the sources it compiled: the hidden tests fail as they really ran."""
    task, repo = inventory
    write_tree(repo, {"start.sh": NOTHING_SERVED, "shadow/InventoryApiTest.java":
                      "package com.example.inventory;\npublic class InventoryApiTest {\n"
                      + "".join(f"@org.junit.jupiter.api.Test void t{i}() {{}}\n" for i in range(15)) + "}\n"})
    _pom(repo, "<build>", "<build><testResources><testResource><directory>shadow</directory><targetPath>"
                          "../../src/test/java/com/example/inventory</targetPath></testResource></testResources>")

    result = evaluate_task(spec=task_spec(task), repo_src=repo, backend=backend, work_root=work_root(),
                           toolchain=toolchain())

    assert (result.outcome, result.tests_passed, result.tests_total) == ("tests_failed", 0, 15), result.detail


def test_a_library_class_shadowed_by_the_submission_is_tampered(in_process, backend):
    """Red team round 7: the submission's build output comes before the libraries on the test class path, so its own
    copy of a class the hidden tests use (here Gson's JsonParser, by which the demo suite reads every reply; there
    hamcrest's matchers, which rest-assured checks bodies with) would decide their verdicts. The run is tampered
    before the service starts."""
    spec, repo = in_process
    write_tree(repo, {"src/main/java/com/google/gson/JsonParser.java":
                      "package com.google.gson;\npublic final class JsonParser {\n"
                      "  public static JsonElement parseString(String s) { return new JsonObject(); }\n}\n"})

    result = evaluate_task(spec=spec, repo_src=repo, backend=backend, work_root=work_root(), toolchain=toolchain())

    assert (result.outcome, result.tests_passed) == ("tampered", 0), result.detail
    assert "com.google.gson.JsonParser" in result.detail and "gson" in result.detail


#: A service-provider entry of the JDK in the submission's resources (red team round 8): its class loads in any JVM
#: that logs through System.Logger, as java.net.http.HttpClient does in the demo's black-box suite; in the surefire
#: fork it ends the JVM at once (the red team's version rewrote the reports instead: 15/15 for a service answering {}).
LOGGER_FINDER = {
    "src/main/resources/META-INF/services/java.lang.System$LoggerFinder": "zz.Finder\n",
    "src/main/java/zz/Finder.java": """
        package zz;
        public class Finder extends System.LoggerFinder {
          static {
            try { Class.forName("org.apache.maven.surefire.booter.ForkedBooter"); Runtime.getRuntime().halt(3); }
            catch (ClassNotFoundException notInSurefire) { }
          }
          public System.Logger getLogger(String name, Module module) {
            return new System.Logger() {
              public String getName() { return name; }
              public boolean isLoggable(System.Logger.Level level) { return false; }
              public void log(System.Logger.Level l, java.util.ResourceBundle b, String m, Throwable t) { }
              public void log(System.Logger.Level l, java.util.ResourceBundle b, String f, Object... p) { }
            };
          }
        }
        """}


def test_no_code_or_resource_of_the_submission_reaches_a_black_box_suites_jvm(inventory, backend):
    """A black-box suite tests the service over HTTP: the runner's project holds nothing of the submission's (the
    platform's pom, the hidden tests), so no class, service entry or resource of it is on the test class path."""
    task, repo = inventory
    write_tree(repo, LOGGER_FINDER)

    result = evaluate_task(spec=task_spec(task), repo_src=repo, backend=backend, work_root=work_root(),
                           toolchain=toolchain())

    assert (result.outcome, result.tests_passed, result.tests_total) == ("passed", 15, 15), result.detail


@LOCAL_ONLY
def test_a_sparse_file_left_by_the_build_is_a_build_failure_not_a_crash(in_process, backend):
    """Red team round 8: two 1.9 GB sparse files cost no disk in the build, but the runner's copy (made for a suite
    that starts the application itself) wrote them out in full, filled the task's folder and crashed the evaluation
    (a worker would send the task again forever)."""
    spec, repo = in_process
    _pom(repo, "<plugins>", """<plugins><plugin><groupId>org.codehaus.mojo</groupId><artifactId>exec-maven-plugin</artifactId>
      <version>3.5.0</version><executions><execution><id>holes</id><phase>generate-sources</phase>
      <goals><goal>exec</goal></goals><configuration><executable>sh</executable><arguments><argument>-c</argument>
      <argument>mkdir -p ${project.build.directory} &amp;&amp; truncate -s 1900M ${project.build.directory}/holes-1 &amp;&amp; truncate -s 1900M ${project.build.directory}/holes-2</argument>
      </arguments></configuration></execution></executions></plugin>""")

    result = evaluate_task(spec=spec, repo_src=repo, backend=backend, work_root=work_root(), toolchain=toolchain())

    assert result.outcome == "build_failed" and "sparse files count in full" in result.detail, \
        (result.detail, str(result.logs)[-2000:])


# --- Java, in-process suites: the application runs in the test JVM (red team round 12) -----------------------------
#: A hidden suite that starts the application itself, as all 8 Java suites of RepoGenesis Verified do.
IN_PROCESS_SUITE = """package com.example.inventory;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.*;

public class InProcessApiTest {
    static com.sun.net.httpserver.HttpServer server;

    @BeforeAll static void up() throws Exception { server = InventoryApplication.start(0); }
    @AfterAll static void down() { server.stop(0); }

    static int get(String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://localhost:"
                + server.getAddress().getPort() + path)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test void isHealthy() throws Exception { Assertions.assertEquals(200, get("/health")); }
    @Test void listsItems() throws Exception { Assertions.assertEquals(200, get("/api/items")); }
    @Test void listsItemsAgain() throws Exception { Assertions.assertEquals(200, get("/api/items/")); }
}
"""
#: The application's start(int), called by the suite in surefire's fork: a server with no route, then the attack.
NO_ROUTE_START = """package com.example.inventory;

public final class InventoryApplication {
    public static void main(String[] args) throws Exception {
        start(Integer.parseInt(System.getenv().getOrDefault("PORT", "8090")));
        Thread.currentThread().join();
    }

    public static com.sun.net.httpserver.HttpServer start(int port) throws java.io.IOException {
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("0.0.0.0", port), 16);
        server.start();
        try { Attack.run(); } catch (Throwable e) { e.printStackTrace(); }
        return server;
    }
}
"""
#: java-inprocess-forge-reports-kill-maven: reports of its own (every hidden test passed, the sentinel class's
#: methods run by reflection for their real verdicts), then Maven SIGKILLed before it prints the hidden class's line
#: or the summary, then the fork halted.
FORGE_AND_KILL_MAVEN = """package com.example.inventory;

import java.lang.reflect.*;
import java.nio.file.*;
import java.util.*;

final class Attack {
    static boolean isTest(Method m) {
        for (var a : m.getDeclaredAnnotations())
            if (a.annotationType().getName().equals("org.junit.jupiter.api.Test")) return true;
        return false;
    }

    static void run() throws Exception {
        Path classes = Paths.get("target", "test-classes"), reports = Paths.get("target", "surefire-reports");
        if (!Files.isDirectory(classes)) return;
        Files.createDirectories(reports);
        List<Path> found = new ArrayList<>();
        try (var walk = Files.walk(classes)) {
            walk.filter(p -> p.toString().endsWith(".class") && !p.getFileName().toString().contains("$"))
                .forEach(found::add);
        }
        for (Path p : found) {
            String rel = classes.relativize(p).toString();
            String name = rel.substring(0, rel.length() - 6).replace('/', '.');
            Class<?> c = Class.forName(name, false, Thread.currentThread().getContextClassLoader());
            boolean sentinel = c.getPackageName().isEmpty();
            StringBuilder cases = new StringBuilder();
            for (Method m : c.getDeclaredMethods()) {
                if (!isTest(m)) continue;
                String verdict = "";
                if (sentinel) {
                    try {
                        Constructor<?> k = c.getDeclaredConstructor();
                        k.setAccessible(true);
                        m.setAccessible(true);
                        m.invoke(Modifier.isStatic(m.getModifiers()) ? null : k.newInstance());
                    } catch (InvocationTargetException e) {
                        verdict = e.getCause().getClass().getName().contains("Aborted") ? "<skipped/>" : "<failure/>";
                    }
                }
                cases.append("<testcase name=\\"" + m.getName() + "\\" classname=\\"" + name + "\\">" + verdict
                             + "</testcase>");
            }
            Files.writeString(reports.resolve("TEST-" + name + ".xml"), "<testsuite>" + cases + "</testsuite>");
        }
        ProcessHandle.allProcesses().filter(h -> h.pid() != ProcessHandle.current().pid())
            .filter(h -> h.info().commandLine().map(s -> s.contains("classworlds")).orElse(false))
            .forEach(ProcessHandle::destroyForcibly);
        Runtime.getRuntime().halt(0);
    }
}
"""
#: java-inprocess-redefine-test-bodies: an instrumentation agent attached to the test JVM (Byte Buddy, from Central,
#: attaches through a helper JVM when self-attach is off) empties every @Test body of the hidden classes.
REDEFINE_TEST_BODIES = """package com.example.inventory;

import java.lang.instrument.Instrumentation;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.dynamic.loading.ClassReloadingStrategy;
import net.bytebuddy.implementation.StubMethod;
import net.bytebuddy.matcher.ElementMatchers;

final class Attack {
    static void run() throws Exception {
        Instrumentation inst = ByteBuddyAgent.install();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            boolean tests = false;
            try {
                for (var m : c.getDeclaredMethods())
                    for (var a : m.getDeclaredAnnotations())
                        tests |= a.annotationType().getName().equals("org.junit.jupiter.api.Test");
            } catch (Throwable e) { continue; }
            if (!tests || c.getPackageName().isEmpty()) continue;
            new ByteBuddy().redefine(c)
                .method(ElementMatchers.isAnnotatedWith(ElementMatchers.named("org.junit.jupiter.api.Test")))
                .intercept(StubMethod.INSTANCE).make()
                .load(c.getClassLoader(), ClassReloadingStrategy.fromInstalledAgent());
        }
    }
}
"""
BYTE_BUDDY = """<dependencies>
    <dependency><groupId>net.bytebuddy</groupId><artifactId>byte-buddy</artifactId><version>1.14.18</version></dependency>
    <dependency><groupId>net.bytebuddy</groupId><artifactId>byte-buddy-agent</artifactId><version>1.14.18</version>
    </dependency>"""


@pytest.fixture
def in_process(inventory, tmp_path):
    """The demo's InventoryService with an in-process hidden suite of 3 tests (InProcessApiTest)."""
    import dataclasses

    task, repo = inventory
    spec = task_spec(task)
    hidden = tmp_path / "hidden-in-process"
    shutil.copytree(spec.hidden_dir, hidden)
    shutil.rmtree(hidden / "src" / "test" / "java")
    write_tree(hidden, {"src/test/java/com/example/inventory/InProcessApiTest.java": IN_PROCESS_SUITE})
    return dataclasses.replace(spec, hidden_dir=hidden, tests_total=3, in_process=True), repo


#: No attack: the application with no route (NO_ROUTE_START) and nothing else, for attacks made by the pom alone.
NO_ATTACK = "package com.example.inventory;\nfinal class Attack { static void run() {} }\n"


def _no_route_attack(repo: Path, attack: str) -> None:
    write_tree(repo, {"src/main/java/com/example/inventory/InventoryApplication.java": NO_ROUTE_START,
                      "src/main/java/com/example/inventory/Attack.java": attack})


@LOCAL_ONLY
def test_an_honest_in_process_suite_is_scored_as_it_ran(in_process, backend):
    spec, repo = in_process

    result = evaluate_task(spec=spec, repo_src=repo, backend=backend, work_root=work_root(), toolchain=toolchain())

    assert (result.outcome, result.tests_passed, result.tests_total) == ("passed", 3, 3), result.detail


#: In the service and in the in-process test JVM: prints the JVM's heap ceiling and processor count (the service's
#: start log shows it) and halts the JVM when they are over a quarter of the sandbox's 2 GiB or over its one CPU (the
#: service would not start; the test run would end without its results).
CHECK_JVM_SIZE = """package com.example.inventory;
final class Attack {
    static void run() {
        long heap = Runtime.getRuntime().maxMemory();
        int cpus = Runtime.getRuntime().availableProcessors();
        System.out.println("jvm-size heap=" + heap + " cpus=" + cpus);
        if (heap > 512L * 1024 * 1024 || cpus != 1) Runtime.getRuntime().halt(3);
    }
}
"""


@LOCAL_ONLY
def test_the_jvms_of_a_java_task_are_sized_by_its_sandbox_not_the_host(in_process, backend):
    """A JVM in the local sandbox sees the host's memory (24 GiB here), not the task's 2 GiB: each JVM of a task took
    a heap ceiling of 6 GiB, and together they outgrew the task's memory: the kernel killed the runner's Maven
    while it compiled the hidden tests (a Verified reference scored 0 of 15 under load). Each JVM, the service's and
    the test run's, now has a quarter of the task's memory at most, and the task's CPUs."""
    spec, repo = in_process
    _no_route_attack(repo, CHECK_JVM_SIZE)
    assert (backend.limits.memory_bytes, backend.limits.cpus) == (2 * 1024 ** 3, 1.0)  # CHECK_JVM_SIZE's bounds

    result = evaluate_task(spec=spec, repo_src=repo, backend=backend, work_root=work_root(), toolchain=toolchain())

    # the service started, and the test JVM ran every test (the application has no route: each failed)
    assert (result.outcome, result.detail) == ("tests_failed", "0 of 3 hidden tests passed"), result.detail
    heap, cpus = re.search(r"jvm-size heap=(\d+) cpus=(\d+)", result.logs["start"]).groups()
    assert int(heap) <= 512 * 1024 ** 2 and cpus == "1"


#: JUnit's Assertions as the submission's source, whose asserts do nothing (fail() still fails: the must-fail
#: sentinel keeps its verdict).
EMPTY_ASSERTIONS = """package org.junit.jupiter.api;
public final class Assertions {
    public static void assertEquals(int expected, int actual) { }
    public static void assertEquals(Object expected, Object actual) { }
    public static <V> V fail(String message) { throw new org.opentest4j.AssertionFailedError(message); }
}
"""


@LOCAL_ONLY
def test_a_library_class_shipped_as_generated_test_source_is_never_compiled(in_process, backend):
    """Red team round 15c: javac reads the test compilation's generated sources as a source path and prefers a newer
    source to the library's class, so Assertions.java shipped in target/generated-test-sources (the pom moved its own
    build's folder elsewhere so it was kept) replaced JUnit's: 15/15 for 1/15. The runner's project has none."""
    spec, repo = in_process
    _no_route_attack(repo, NO_ATTACK)
    write_tree(repo, {"target/generated-test-sources/test-annotations/org/junit/jupiter/api/Assertions.java":
                      EMPTY_ASSERTIONS})
    _pom(repo, "<release>17</release>", "<release>17</release><generatedTestSourcesDirectory>"
                                        "${project.build.directory}/elsewhere</generatedTestSourcesDirectory>")

    result = evaluate_task(spec=spec, repo_src=repo, backend=backend, work_root=work_root(), toolchain=toolchain())

    assert (result.outcome, result.tests_passed, result.tests_total) == ("tests_failed", 0, 3), result.detail


@LOCAL_ONLY
def test_reports_forged_in_process_with_maven_killed_are_tampered(in_process, backend):
    spec, repo = in_process
    _no_route_attack(repo, FORGE_AND_KILL_MAVEN)

    result = evaluate_task(spec=spec, repo_src=repo, backend=backend, work_root=work_root(), toolchain=toolchain())

    assert (result.outcome, result.tests_passed, result.tests_total) == ("tampered", 0, 3), result.detail
    # Maven is killed before it prints the forged classes' results ("printed no result"), or, when it was quicker,
    # after its summary of fewer passes than the reports claim: either way the reports are refused
    assert result.detail.endswith("the reports were not written by the test run"), result.detail


#: java-sigquit-flood (red team round 19): the test JVM prints a fake final summary and 40 KB of filler (Maven's own
#: line of the class falls into the console's dropped middle), writes a report of every test passed, and starts a
#: shell that, once the test JVM has ended, puts that report in place and sends Maven SIGQUIT every 2 ms: Maven's
#: thread dumps then filled the console's kept tail after its real summary, and the fake one counted (15/15 for 1/15).
SIGQUIT_FLOOD = """package com.example.inventory;

import java.nio.file.*;

final class Attack {
    static void run() throws Exception {
        if (!Files.isDirectory(Paths.get("target", "test-classes"))) return;
        String cls = "com.example.inventory.InProcessApiTest";
        Path forged = Files.createTempFile("rg-forged", ".xml");
        StringBuilder cases = new StringBuilder();
        for (String name : new String[] {"isHealthy", "listsItems", "listsItemsAgain"})
            cases.append("<testcase name=\\"" + name + "\\" classname=\\"" + cls + "\\" time=\\"0.01\\"/>");
        Files.writeString(forged, "<testsuite name=\\"" + cls + "\\" tests=\\"3\\">" + cases + "</testsuite>");
        long maven = ProcessHandle.allProcesses().filter(h -> {
            try {  // /proc/<pid>/cmdline: ProcessHandle's commandLine() needs the exe link, refused for Maven
                return new String(Files.readAllBytes(Paths.get("/proc/" + h.pid() + "/cmdline"))).contains("classworlds");
            } catch (Exception e) { return false; }
        }).findFirst().map(ProcessHandle::pid).orElse(0L);
        if (maven == 0) return;
        String report = Paths.get("target", "surefire-reports", "TEST-" + cls + ".xml").toAbsolutePath().toString();
        new ProcessBuilder("sh", "-c", "while kill -0 " + ProcessHandle.current().pid() + " 2>/dev/null; do :; done; cp "
            + forged + " " + report + "; while kill -QUIT " + maven + " 2>/dev/null; do :; done")
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        System.out.println("Tests run: 6, Failures: 1, Errors: 0, Skipped: 1");
        String filler = "x".repeat(999);
        for (int i = 0; i < 40; i++) System.out.println(filler);
    }
}
"""


def test_maven_cannot_be_made_to_push_its_summary_out_of_the_kept_console(in_process, backend):
    """Red team round 19: the runner's Maven ignores no signal of its own (-Xrs: a SIGQUIT ends it instead of
    printing a thread dump), the test JVM's Landlock domain refuses it signals to Maven (local backend), and a
    capped console's summary counts only from its tail: the forged report is `tampered` or not counted."""
    spec, repo = in_process
    _no_route_attack(repo, SIGQUIT_FLOOD)

    result = evaluate_task(spec=spec, repo_src=repo, backend=backend, work_root=work_root(), toolchain=toolchain())

    assert result.tests_passed == 0 and result.outcome in ("tampered", "tests_failed"), result.detail


@LOCAL_ONLY
def test_test_bodies_redefined_by_an_agent_attached_in_process_are_run_as_written(in_process, backend):
    """The platform starts surefire's fork with -XX:+DisableAttachMechanism: no agent attaches to the test JVM, so
    the hidden tests run as compiled and fail against a service with no route."""
    spec, repo = in_process
    _no_route_attack(repo, REDEFINE_TEST_BODIES)
    _pom(repo, "<dependencies>", BYTE_BUDDY)

    result = evaluate_task(spec=spec, repo_src=repo, backend=backend, work_root=work_root(), toolchain=toolchain())

    assert (result.outcome, result.tests_passed, result.tests_total) == ("tests_failed", 0, 3), result.detail


@LOCAL_ONLY
def test_a_maven_killed_while_compiling_the_hidden_tests_is_a_platform_fault_not_a_zero(in_process, backend,
                                                                                       monkeypatch):
    """A reference scored 0 of 15 "did not compile" under load: its test run's Maven was SIGKILLed 0.2 s after it
    started (cause outside the run). No code of the submission runs while javac compiles the hidden tests, so such a
    kill is retried as a platform fault. The real compile runs first; its result is then reported as killed."""
    from core.engine.runner import TaskRun
    from core.sandbox import ExecResult, SandboxError

    original = TaskRun._run_runner_maven

    def killed_while_compiling(self, sb, argv, deadline):
        result = original(self, sb, argv, deadline)
        if argv[-1].endswith(":testCompile"):
            return ExecResult(returncode=137, output=result.output, timed_out=False, duration=result.duration)
        return result

    monkeypatch.setattr(TaskRun, "_run_runner_maven", killed_while_compiling)
    spec, repo = in_process
    with pytest.raises(SandboxError, match="killed while compiling the hidden tests"):
        evaluate_task(spec=spec, repo_src=repo, backend=backend, work_root=work_root(), toolchain=toolchain())


#: java-fake-platform-fault (red team round 20): the test JVM prints the JVM launcher's refusal, a helper deletes
#: every report until Maven is done, and the JVM halts: no report, and a console claiming a platform fault.
FAKE_PLATFORM_FAULT = """package com.example.inventory;

import java.nio.file.*;

final class Attack {
    static void run() throws Exception {
        if (!Files.isDirectory(Paths.get("target", "test-classes"))) return;
        String reports = Paths.get("target", "surefire-reports").toAbsolutePath().toString();
        new ProcessBuilder("sh", "-c", "for i in $(seq 1 300); do rm -rf " + reports + "/*; sleep 0.05; done")
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String refused = "platform: the test JVM's Landlock domain could not be made Operation not permitted";
        System.out.println(refused);
        System.err.println(refused);
        Thread.sleep(1000);  // surefire relays the lines to Maven's console
        Runtime.getRuntime().halt(0);
    }
}
"""


def test_a_platform_fault_the_test_jvm_claims_is_not_believed(in_process, backend):
    """Red team round 20: each bad run became an unscored retry (harness_error after three attempts). The claim is
    checked with the platform's own probe launcher: the run is the submission's, scored 0."""
    spec, repo = in_process
    _no_route_attack(repo, FAKE_PLATFORM_FAULT)

    result = evaluate_task(spec=spec, repo_src=repo, backend=backend, work_root=work_root(), toolchain=toolchain())

    assert result.tests_passed == 0 and result.outcome in ("tests_failed", "tampered"), result.detail
