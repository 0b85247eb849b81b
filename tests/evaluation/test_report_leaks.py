"""Red team round 13, finding 2: the hidden test source read out through a task's detail and its stored cases. Code
in the in-process test JVM read src/test and wrote an extra report whose class names held 420 characters of the
hidden source and whose case names held all of it; the run was rightly `tampered`, but the one-line detail (shown
to everyone who may see the submission, on every split) quoted the foreign class names, and the cases, kept even
for a tampered run, were listed on a public split's submission page: the whole hidden test file, verbatim. A reason
now names only what the platform knows (the hidden suite's classes, counts, fixed words), never a string of a
report, of Maven's console or a file name the run chose; no case is kept from a tampered or disbelieved run; the
cases kept are those of the hidden suite's classes whose names start with a method or function the suite declares,
after that name only what surefire writes there or
MAX_CASE_SUFFIX characters of pytest's parameter ids. White-box on TaskRun._read_reports, surefire_check and the hidden-source
check; the reproducer is /tmp/rt13/findings/2-hidden-tests-via-detail."""
from __future__ import annotations

import os
import shutil

from core.engine.runner import MAX_CASE_SUFFIX, TaskRun, surefire_check
from core.grading.junit import parse_junit
from core.engine.spec import TaskSpec
from core.engine.toolchain import Toolchain
from core.sandbox import ExecResult
from tests.sandbox_helpers import java_task_run

SECRET = "assertEquals(201, response.getStatus()); // hidden7f3a"
HIDDEN_TEST = f"""package tests;

import org.junit.jupiter.api.Test;

public class ApiTest {{
    @Test
    void testRegisterUser() {{
        {SECRET}
    }}

    @Test
    void testLoginUser() {{
    }}

    @Test
    void testCreateProject() {{
    }}
}}
"""


def _java_run(tmp_path) -> TaskRun:
    return java_task_run(tmp_path, HIDDEN_TEST, 3)


def _sentinel_cases(run: TaskRun) -> str:
    s = run.sentinels
    return (f'<testcase classname="{s.java_class}" name="{s.must_pass}"/>'
            f'<testcase classname="{s.java_class}" name="{s.must_skip}"><skipped/></testcase>'
            f'<testcase classname="{s.java_class}" name="{s.must_fail}"><failure/></testcase>')


def _console(run: TaskRun, *, api: str = "tests.ApiTest", run_: int = 3, failures: int = 0,
             printed: bool = True) -> str:
    """Maven's console of a run: the sentinel class's line, the hidden class's (as `api`, with `run_` cases of which
    `failures` failed; none when not `printed`), and the run's summary."""
    s = run.sentinels
    line = (f"[INFO] Tests run: {run_}, Failures: {failures}, Errors: 0, Skipped: 0, Time elapsed: 1 s -- in {api}\n"
            if printed else "")
    return (f"[INFO] Tests run: 3, Failures: 1, Errors: 0, Skipped: 1, Time elapsed: 0.1 s -- in {s.java_class}\n"
            f"{line}[INFO] Results:\n[INFO] Tests run: {3 + run_}, Failures: {1 + failures}, Errors: 0, "
            "Skipped: 1\n[INFO] BUILD SUCCESS\n")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def test_a_report_of_foreign_classes_holding_the_hidden_source_is_tampered_and_quotes_none_of_it(tmp_path):
    run = _java_run(tmp_path)
    reports = tmp_path / "surefire-reports"
    reports.mkdir()
    (reports / "TEST-tests.ApiTest.xml").write_text(
        "<testsuite>" + "".join(f'<testcase classname="tests.ApiTest" name="{m}"/>'
                                for m in ("testRegisterUser", "testLoginUser", "testCreateProject")) + "</testsuite>")
    (reports / "TEST-sentinel.xml").write_text(f"<testsuite>{_sentinel_cases(run)}</testsuite>")
    leak = _escape(f"[src/test/java/ApiTest.java] {HIDDEN_TEST}")
    (reports / "TEST-zz.leak.xml").write_text(
        f'<testsuite><testcase classname="{leak[:420]}" name="x"><failure/></testcase>'
        f'<testcase classname="~leak" name="0000 {leak}"><failure/></testcase></testsuite>')
    console = _console(run)

    why = run._read_reports(sorted(reports.glob("TEST-*.xml")), console=console, run=ExecResult(0, console, False, 1))

    assert why == ("the test report holds cases of 2 classes that are not the hidden tests: the build changed which "
                   "tests ran")
    assert run.cases == () and run.total == 3  # nothing of a tampered run is kept (run_tests sets P to 0)


def test_a_fifo_or_link_named_after_the_hidden_source_is_not_named(tmp_path):
    run = _java_run(tmp_path)
    reports = tmp_path / "surefire-reports"
    reports.mkdir()
    (reports / "TEST-tests.ApiTest.xml").write_text('<testsuite><testcase classname="tests.ApiTest" name="a"/>'
                                                    "</testsuite>")
    os.mkfifo(reports / "TEST-assertEquals(201,response.getStatus()).xml")

    why = run._read_reports(sorted(reports.glob("TEST-*.xml")))

    assert why == ("the test reports hold a report that is not a regular file (a link, FIFO or device): code of the "
                   "submission wrote into the reports folder")


def test_class_names_read_from_reports_or_the_console_are_named_only_when_the_platform_knows_them(tmp_path):
    """surefire_check's reasons (unprinted classes, a class line saying more failures) quoted the reports' and the
    console's class names: the test JVM writes both."""
    run = _java_run(tmp_path)
    foreign = "import.kong.unirest.HttpResponse.public.class.ApiTest"
    path = tmp_path / "TEST-x.xml"
    path.write_text(f"<testsuite>{_sentinel_cases(run)}"
                    + "".join(f'<testcase classname="{foreign}" name="t{k}"/>' for k in range(3)) + "</testsuite>")
    forged = parse_junit([path])
    shown = "a class that is not the hidden tests'"

    # Maven killed before it printed a line of the class: reports of a class with no line
    killed = surefire_check(_console(run, printed=False), forged, returncode=137, timed_out=False,
                            classes=run.java_classes)
    # a line of the class says more failures than its report holds
    altered = surefire_check(_console(run, api=foreign, failures=3), forged, returncode=0, timed_out=False,
                             classes=run.java_classes)
    # a line of the class says fewer passes than its report holds
    more = surefire_check(_console(run, api=foreign, run_=2), forged, returncode=0, timed_out=False,
                          classes=run.java_classes)
    # Maven exited normally without a line of the class: not believed, and the reason names no class
    unprinted = surefire_check(_console(run, printed=False), parse_junit([_fail_only(tmp_path, run, foreign)]),
                               returncode=0, timed_out=False, classes=run.java_classes)

    for check in (killed, altered, more):
        assert check.tampered and shown in check.tampered and "kong" not in check.tampered, check
    assert unprinted.tampered is None and unprinted.not_believed == (
        f"Maven printed no result for {shown}: the run's reports are not counted")


def _fail_only(tmp_path, run: TaskRun, classname: str):
    path = tmp_path / "TEST-y.xml"
    path.write_text(f'<testsuite>{_sentinel_cases(run)}<testcase classname="{classname}" name="t"><failure/>'
                    "</testcase></testsuite>")
    return path


def test_the_cases_kept_are_the_hidden_suites_own_with_short_names(tmp_path):
    """A run that is believed and not tampered keeps its cases (a public split lists them), but only cases of the
    hidden suite's classes whose name starts with a method the suite declares, followed only by what surefire
    writes there: a report rewritten with the right counts and verdicts cannot carry the source in its names."""
    run = _java_run(tmp_path)
    path = tmp_path / "TEST-tests.ApiTest.xml"
    path.write_text(f"<testsuite>{_sentinel_cases(run)}"
                    '<testcase classname="tests.ApiTest" name="testRegisterUser(String)[2]"/>'
                    f'<testcase classname="tests.ApiTest" name="testLoginUser[{_escape(HIDDEN_TEST)}]"/>'
                    '<testcase classname="tests.ApiTest" name="import kong.unirest.JsonNode"/></testsuite>')
    console = _console(run)

    assert run._read_reports([path], console=console, run=ExecResult(0, console, False, 1)) is None

    assert (run.passed, run.total) == (3, 3)
    # "import ..." is no test of the suite; the text after testLoginUser is not surefire's
    assert [c.name for c in run.cases] == ["tests.ApiTest::testRegisterUser(String)[2]", "tests.ApiTest::testLoginUser"]


def test_a_disbelieved_run_keeps_no_cases(tmp_path):
    run = _java_run(tmp_path)
    path = tmp_path / "TEST-x.xml"
    path.write_text(f"<testsuite>{_sentinel_cases(run)}"
                    '<testcase classname="tests.ApiTest" name="testRegisterUser"><failure/></testcase></testsuite>')
    console = _console(run, run_=1, failures=1)

    assert run._read_reports([path], console=console, run=ExecResult(1, console, False, 1)) is None
    assert run.not_believed and run.cases == ()


def test_a_pytest_report_keeps_cases_of_the_suites_modules_only(tmp_path):
    hidden = tmp_path / "hidden"
    (hidden / "tests").mkdir(parents=True)
    (hidden / "tests" / "test_api.py").write_text("class TestGroup:\n    def test_b(self):\n        pass\n\n\n"
                                                  "def test_a():\n    pass\n")
    (hidden / "reference").mkdir()
    (hidden / "reference" / "app.py").write_text("def test_ref():\n    pass\n")
    spec = TaskSpec(name="T", language="python", port=18999, hidden_dir=hidden, tests_total=3)
    run = TaskRun(spec=spec, repo_src=None, backend=None, work_root=tmp_path / "work", toolchain=Toolchain())
    s = run.sentinels
    report = tmp_path / "junit.xml"
    report.write_text(f'<testsuites><testsuite><testcase classname="x" name="{s.must_pass}"/>'
                      f'<testcase classname="x" name="{s.must_skip}"><skipped/></testcase>'
                      '<testcase classname="tests.test_api" name="test_a"/>'
                      f'<testcase classname="tests.test_api.TestGroup" name="test_b[{_escape(SECRET * 3)}]"/>'
                      f'<testcase classname="{_escape(SECRET)}" name="test_a"/>'
                      f'<testcase classname="x" name="{s.must_skip_last}"><skipped/></testcase></testsuite></testsuites>')

    assert run._read_reports([report]) is None
    # a class that is no module of the suite is left out; pytest's parameter ids are cut short
    suffix = f"[{SECRET * 3}]"[:MAX_CASE_SUFFIX] + "..."
    assert [c.name for c in run.cases] == ["tests.test_api::test_a", f"tests.test_api.TestGroup::test_b{suffix}"]


def test_a_file_the_compilation_added_under_src_test_is_not_named(tmp_path):
    run = _java_run(tmp_path)
    tests = tmp_path / "runner" / "src" / "test"
    shutil.copytree(run.spec.hidden_dir / "src" / "test", tests)
    run._plant_sentinel(tests)
    assert run._hidden_sources_changed(tests) is None
    (tests / "java" / "assertEquals(201,response.getStatus());.java").write_text("x")

    assert run._hidden_sources_changed(tests) == "a file under src/test that the platform did not plant"
    (tests / "java" / "assertEquals(201,response.getStatus());.java").unlink()
    (tests / "java" / "tests" / "ApiTest.java").write_text("changed")
    assert run._hidden_sources_changed(tests) == "src/test/java/tests/ApiTest.java"  # a planted file: its name
