"""JUnit XML parsing: a report written by a real pytest run, and Maven Surefire reports in their real format."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from core.grading.junit import JUnitError, Status, TestCase, parse_junit

SECRET = "hidden-expected-value-7f3a"

PYTEST_SUITE = f'''
import pytest

@pytest.fixture
def broken():
    raise RuntimeError("fixture failed {SECRET}")

def test_passes():
    assert 1 + 1 == 2

def test_fails():
    assert "{SECRET}" == "something else"

def test_errors_in_setup(broken):
    pass

def test_skipped():
    pytest.skip("service down {SECRET}")

@pytest.mark.xfail(reason="known")
def test_xfailed():
    assert False

@pytest.mark.xfail(strict=True)
def test_xpassed_strict():
    pass

@pytest.mark.parametrize("n", [1, 2, 3])
def test_param(n):
    assert n != 2

class TestGroup:
    def test_method(self):
        pass
'''


@pytest.fixture(scope="module")
def pytest_report(tmp_path_factory) -> Path:
    """JUnit XML written by actually running pytest on a tiny suite."""
    folder = tmp_path_factory.mktemp("suite")
    (folder / "test_sample.py").write_text(PYTEST_SUITE)
    return _run_pytest(folder)


def _run_pytest(folder: Path) -> Path:
    """Run pytest on the test files of `folder` (some of which fail) and return the JUnit XML it wrote."""
    (folder / "pytest.ini").write_text("[pytest]\n")
    report = folder / "report.xml"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "DJANGO_"))}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:django", "-p", "no:cacheprovider",
         "-c", str(folder / "pytest.ini"), "--rootdir", str(folder), f"--junitxml={report}", str(folder)],
        cwd=folder, env=env, capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    return report


def test_pytest_report_statuses(pytest_report):
    result = parse_junit([pytest_report])
    statuses = {case.name: case.status for case in result.cases}
    assert statuses == {
        "test_passes": Status.PASSED,
        "test_fails": Status.FAILED,
        "test_errors_in_setup": Status.ERROR,
        "test_skipped": Status.SKIPPED,
        "test_xfailed": Status.SKIPPED,
        "test_xpassed_strict": Status.FAILED,
        "test_param[1]": Status.PASSED,
        "test_param[2]": Status.FAILED,
        "test_param[3]": Status.PASSED,
        "test_method": Status.PASSED,
    }
    assert (result.passed, result.total) == (4, 10)
    assert result.counts == {Status.PASSED: 4, Status.FAILED: 3, Status.ERROR: 1, Status.SKIPPED: 2}
    assert next(c for c in result.cases if c.name == "test_method").classname == "test_sample.TestGroup"


def test_messages_are_not_kept(pytest_report):
    assert SECRET in pytest_report.read_text()  # the report has it ...
    result = parse_junit([pytest_report])
    assert SECRET not in repr(result)  # ... the parsed result does not
    assert set(TestCase.__dataclass_fields__) == {"name", "classname", "status"}


SUREFIRE_ITEMS = """<?xml version="1.0" encoding="UTF-8"?>
<testsuite xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="https://maven.apache.org/surefire/maven-surefire-plugin/xsd/surefire-test-report.xsd" version="3.0.2" name="com.example.ItemApiTest" time="1.234" tests="5" errors="1" skipped="1" failures="1">
  <properties>
    <property name="java.version" value="17.0.9"/>
    <property name="user.dir" value="/work/task"/>
  </properties>
  <testcase name="createItem" classname="com.example.ItemApiTest" time="0.412"/>
  <testcase name="listItems" classname="com.example.ItemApiTest" time="0.031">
    <failure message="expected: &lt;200&gt; but was: &lt;404&gt;" type="org.opentest4j.AssertionFailedError"><![CDATA[org.opentest4j.AssertionFailedError: expected: <200> but was: <404>
	at com.example.ItemApiTest.listItems(ItemApiTest.java:42)]]></failure>
    <system-out><![CDATA[<!DOCTYPE html><html><body>Whitelabel Error Page</body></html>]]></system-out>
  </testcase>
  <testcase name="deleteItem" classname="com.example.ItemApiTest" time="0.002">
    <error message="Connection refused" type="java.net.ConnectException"><![CDATA[java.net.ConnectException: Connection refused]]></error>
  </testcase>
  <testcase name="updateItem" classname="com.example.ItemApiTest" time="0">
    <skipped message="Disabled until v2"/>
  </testcase>
  <testcase name="flakyHealth" classname="com.example.ItemApiTest" time="0.101">
    <flakyFailure message="timeout" type="java.lang.AssertionError"><stackTrace><![CDATA[java.lang.AssertionError: timeout]]></stackTrace></flakyFailure>
  </testcase>
</testsuite>
"""

SUREFIRE_USERS = """<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="com.example.UserApiTest" time="0.5" tests="3" errors="0" skipped="0" failures="1">
  <testcase name="register(String)[1]" classname="com.example.UserApiTest" time="0.1"/>
  <testcase name="register(String)[2]" classname="com.example.UserApiTest" time="0.1"/>
  <testcase name="login" classname="com.example.UserApiTest" time="0.2">
    <failure message="bad token" type="java.lang.AssertionError"/>
    <rerunFailure message="bad token" type="java.lang.AssertionError"/>
  </testcase>
</testsuite>
"""


def test_surefire_reports_from_several_files(tmp_path):
    first = tmp_path / "TEST-com.example.ItemApiTest.xml"
    second = tmp_path / "TEST-com.example.UserApiTest.xml"
    first.write_text(SUREFIRE_ITEMS)
    second.write_text(SUREFIRE_USERS)
    result = parse_junit([first, second])
    assert [(c.classname.rsplit(".", 1)[1], c.name, c.status.value) for c in result.cases] == [
        ("ItemApiTest", "createItem", "passed"),
        ("ItemApiTest", "listItems", "failed"),
        ("ItemApiTest", "deleteItem", "error"),
        ("ItemApiTest", "updateItem", "skipped"),
        ("ItemApiTest", "flakyHealth", "passed"),
        ("UserApiTest", "register(String)[1]", "passed"),
        ("UserApiTest", "register(String)[2]", "passed"),
        ("UserApiTest", "login", "failed"),
    ]
    assert (result.passed, result.total) == (4, 8)


def test_testsuites_root_with_nested_suites_and_no_cases(tmp_path):
    nested = tmp_path / "nested.xml"
    nested.write_text(
        '<testsuites><testsuite name="outer"><testsuite name="inner">'
        '<testcase classname="a.B" name="t1"/><testcase classname="a.B" name="t2"><skipped/></testcase>'
        "</testsuite></testsuite></testsuites>"
    )
    empty_run = tmp_path / "empty.xml"
    empty_run.write_text('<?xml version="1.0"?><testsuites><testsuite name="pytest" tests="0"/></testsuites>')
    result = parse_junit([nested, empty_run])
    assert [(c.name, c.status) for c in result.cases] == [("t1", Status.PASSED), ("t2", Status.SKIPPED)]
    assert parse_junit([empty_run]).total == 0


@pytest.mark.parametrize(
    "content, message",
    [
        ("", "empty report"),
        ("  \n\t", "empty report"),
        ("<testsuite><testcase name='x'>", "not well-formed"),
        ("not xml at all", "not well-formed"),
        ("<html><body>oops</body></html>", "root element <html>"),
        (
            '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>'
            "<testsuite><testcase name='&lol2;'/></testsuite>",
            "DOCTYPE",
        ),
    ],
)
def test_bad_reports_raise(tmp_path, content, message):
    path = tmp_path / "report.xml"
    path.write_text(content)
    with pytest.raises(JUnitError, match=message) as info:
        parse_junit([path])
    assert "report.xml" in str(info.value)


def test_missing_file_and_no_files_raise(tmp_path):
    good = tmp_path / "good.xml"
    good.write_text(SUREFIRE_USERS)
    with pytest.raises(JUnitError, match="absent.xml: cannot read"):
        parse_junit([good, tmp_path / "absent.xml"])
    with pytest.raises(JUnitError, match="no report"):
        parse_junit([])


def test_error_messages_do_not_quote_the_file(tmp_path):
    path = tmp_path / "report.xml"
    path.write_text(textwrap.dedent(f"""\
        <testsuite>
          <testcase name="a"><failure message="{SECRET}"/></testcase>
          <testcase name="b"> {SECRET} <
        </testsuite>"""))
    with pytest.raises(JUnitError) as info:
        parse_junit([path])
    assert SECRET not in str(info.value)


@pytest.mark.parametrize("report", [
    # a default namespace on the root: every element's tag is "{urn:...}testcase"
    '<?xml version="1.0"?><testsuites xmlns="urn:example:junit"><testsuite name="s">'
    '<testcase classname="tests.test_api" name="test_a"/><testcase classname="tests.test_api" name="test_b">'
    '<failure message="x"/></testcase><testcase name="test_c"><skipped/></testcase>'
    '<testcase name="test_d"><error/></testcase></testsuite></testsuites>',
    # a prefixed namespace on every element
    '<?xml version="1.0"?><j:testsuite xmlns:j="http://example.org/junit" name="s">'
    '<j:testcase classname="tests.test_api" name="test_a"/><j:testcase classname="tests.test_api" name="test_b">'
    '<j:failure/></j:testcase><j:testcase name="test_c"><j:skipped/></j:testcase>'
    '<j:testcase name="test_d"><j:error/></j:testcase></j:testsuite>',
], ids=["default-namespace", "prefixed-namespace"])
def test_a_namespaced_report_yields_its_cases(tmp_path, report):
    """A report whose elements carry an XML namespace scores like a plain one (a passing task must not score 0)."""
    path = tmp_path / "TEST-ns.xml"
    path.write_text(report)

    result = parse_junit([path])

    assert [(c.name, c.classname, c.status) for c in result.cases] == [
        ("test_a", "tests.test_api", Status.PASSED), ("test_b", "tests.test_api", Status.FAILED),
        ("test_c", "", Status.SKIPPED), ("test_d", "", Status.ERROR)]
    assert (result.total, result.passed) == (4, 1)


def test_a_namespaced_root_of_another_kind_is_still_refused(tmp_path):
    path = tmp_path / "report.xml"
    path.write_text('<?xml version="1.0"?><r:results xmlns:r="urn:x"><r:testcase name="a"/></r:results>')
    with pytest.raises(JUnitError, match="root element <results>"):
        parse_junit([path])


def test_a_case_without_a_name_is_counted_with_an_empty_name(tmp_path):
    path = tmp_path / "report.xml"
    path.write_text('<testsuite><testcase classname="c"/></testsuite>')
    assert parse_junit([path]).cases == (TestCase(name="", classname="c", status=Status.PASSED),)


def test_the_size_limit_is_inclusive_and_the_errors_name_the_problem(tmp_path, monkeypatch):
    from core.grading import junit

    data = '<testsuite><testcase name="a"/></testsuite>'
    path = tmp_path / "report.xml"
    path.write_text(data)
    monkeypatch.setattr(junit, "MAX_REPORT_BYTES", len(data))
    assert parse_junit([path]).total == 1  # exactly at the limit: read
    path.write_text(data + " ")
    with pytest.raises(JUnitError, match=rf"^report\.xml: report larger than {len(data)} bytes$"):
        parse_junit([path])
    with pytest.raises(JUnitError, match=r"^missing\.xml: cannot read report \(No such file or directory\)$"):
        parse_junit([tmp_path / "missing.xml"])
    with pytest.raises(JUnitError, match="^no report file$"):
        parse_junit([])


def _fifo_and_link(folder: Path) -> tuple[Path, Path, Path]:
    """Two reports in `folder` that are not regular files, a FIFO and a link, and the host file the link names
    (secret.xml, a valid report of one case)."""
    fifo = folder / "TEST-zz.Fifo.xml"
    os.mkfifo(fifo)
    secret = folder / "secret.xml"
    secret.write_text('<testsuite><testcase classname="Host" name="secret"/></testsuite>')
    link = folder / "TEST-zz.Link.xml"
    link.symlink_to(secret)
    return fifo, link, secret


@pytest.mark.timeout(20)
def test_a_report_that_is_a_fifo_or_a_link_is_refused_without_being_read(tmp_path):
    """Red team round 11: a FIFO named TEST-*.xml among surefire's reports hung the worker opening it as root, and a
    link would have been followed to a host file."""
    fifo, link, secret = _fifo_and_link(tmp_path)

    for path in (fifo, link):
        with pytest.raises(JUnitError, match="not a regular file"):
            parse_junit([path])
    assert parse_junit([secret]).total == 1


# --- Red team round 13: a flood of cases, hard-linked under many report names ------------------------------------
def _flood(path: Path, cases: int) -> Path:
    """A report of `cases` bare <testcase/> elements (the red team's 64 MiB file held 6.1 M)."""
    path.write_bytes(b"<testsuite>" + b"<testcase/>" * cases + b"</testsuite>")
    return path


def test_a_hard_linked_report_is_forged_and_never_parsed(tmp_path):
    """One report hard-linked under several TEST-*.xml names was read once per name: 4 links of a 64 MiB report
    were 24.4 M cases, 13.4 GB of worker memory and 814 s. A report file with more than one link is refused before
    any file is read; the reason names no file (the names are the submission's)."""
    from core.grading.junit import ForgedReport

    first = _flood(tmp_path / "TEST-zz.flood0000.xml", 1000)
    links = [first] + [tmp_path / f"TEST-zz.flood{k:04d}.xml" for k in range(1, 4)]
    for link in links[1:]:
        os.link(first, link)

    with pytest.raises(ForgedReport) as info:
        parse_junit(links)
    assert info.value.why == "a report file that is a hard link" and "flood" not in info.value.why
    with pytest.raises(ForgedReport):  # a single name of a linked file is refused too
        parse_junit([links[2]])


def test_the_parse_stops_at_the_case_limit_without_building_the_flood(tmp_path):
    """The caller's limit (the most an honest run reports, and a margin) ends the parse at once: the 64 MiB report
    of 6.1 M bare cases costs its bytes, not a tree or an object per case."""
    import time
    import tracemalloc

    from core.grading import junit
    from core.grading.junit import ForgedReport

    flood = _flood(tmp_path / "TEST-zz.flood.xml", (junit.MAX_REPORT_BYTES - 30) // len(b"<testcase/>"))
    assert flood.stat().st_size <= junit.MAX_REPORT_BYTES
    started = time.monotonic()
    tracemalloc.start()
    try:
        with pytest.raises(ForgedReport, match="more than 1018 cases"):
            parse_junit([flood], max_cases=1018)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert time.monotonic() - started < 10
    assert peak < junit.MAX_REPORT_BYTES + 16 * 2**20  # the file's bytes, and little else
    assert parse_junit([_flood(tmp_path / "TEST-ok.xml", 1018)], max_cases=1018).total == 1018  # inclusive


def test_the_size_limit_holds_for_all_reports_together(tmp_path, monkeypatch):
    from core.grading import junit

    data = '<testsuite><testcase name="a"/></testsuite>'
    files = []
    for k in range(3):
        files.append(tmp_path / f"TEST-{k}.xml")
        files[-1].write_text(data)
    monkeypatch.setattr(junit, "MAX_REPORT_BYTES", 3 * len(data))
    assert parse_junit(files).total == 3  # exactly at the limit: read
    monkeypatch.setattr(junit, "MAX_REPORT_BYTES", 3 * len(data) - 1)
    with pytest.raises(JUnitError, match="report larger than"):
        parse_junit(files)


def test_more_report_files_than_a_run_writes_are_forged(tmp_path, monkeypatch):
    from core.grading import junit
    from core.grading.junit import ForgedReport

    files = []
    for k in range(4):
        files.append(tmp_path / f"TEST-{k}.xml")
        files[-1].write_text('<testsuite><testcase name="a"/></testsuite>')
    monkeypatch.setattr(junit, "MAX_REPORT_FILES", 4)
    assert parse_junit(files).total == 4
    monkeypatch.setattr(junit, "MAX_REPORT_FILES", 3)
    with pytest.raises(ForgedReport, match="4 report files, more than 3"):
        parse_junit(files)


def test_nesting_and_element_floods_are_refused(tmp_path, monkeypatch):
    """No tree is built, so depth is what the parser's stack holds: refused past MAX_REPORT_DEPTH; and a report of
    elements that are not cases stops at MAX_REPORT_ELEMENTS."""
    from core.grading import junit

    deep = tmp_path / "deep.xml"
    deep.write_text("<testsuite>" + "<a>" * 100 + "</a>" * 100 + "</testsuite>")
    with pytest.raises(JUnitError, match="nested deeper"):
        parse_junit([deep])
    wide = tmp_path / "wide.xml"
    wide.write_text("<testsuite>" + "<p/>" * 50 + '<testcase name="a"/></testsuite>')
    monkeypatch.setattr(junit, "MAX_REPORT_ELEMENTS", 40)
    with pytest.raises(JUnitError, match="more than 40 elements"):
        parse_junit([wide])


# --- Mutation pass of the streaming parser (issue 16, docs/mutation.md) --------------------------------------------
def test_a_failing_test_that_records_a_property_counts_as_failed(tmp_path):
    """pytest writes a case's <properties> (record_property) before its <failure>: the failure still decides the
    status, and a case's end is the end of the case, not of its first child's child."""
    (tmp_path / "test_props.py").write_text(textwrap.dedent('''\
        def test_records_then_fails(record_property):
            record_property("endpoint", "/items")
            assert False

        def test_records_then_passes(record_property):
            record_property("endpoint", "/users")
    '''))
    report = _run_pytest(tmp_path)
    xml = report.read_text()
    assert xml.index("<properties>") < xml.index("<failure")  # the shape this test is about

    result = parse_junit([report])

    assert [(c.name, c.status) for c in result.cases] == [
        ("test_records_then_fails", Status.FAILED), ("test_records_then_passes", Status.PASSED)]


def test_a_doctype_without_entities_is_refused_too(tmp_path):
    path = tmp_path / "report.xml"
    path.write_text('<?xml version="1.0"?><!DOCTYPE testsuite><testsuite><testcase name="a"/></testsuite>')
    with pytest.raises(JUnitError, match=r"^report\.xml: DOCTYPE or entity declarations are not allowed$"):
        parse_junit([path])


def test_the_depth_element_and_case_limits_are_inclusive(tmp_path, monkeypatch):
    """Each bound lets its limit through and refuses one more: a case at depth MAX_REPORT_DEPTH is read, one level
    deeper is refused; MAX_REPORT_ELEMENTS elements over all the reports are read, one more is refused; `max_cases`
    cases are read, one more is forged."""
    from core.grading import junit
    from core.grading.junit import ForgedReport

    def nested(levels: int) -> Path:  # <testsuite>, then `levels - 2` suites, then a case at depth `levels`
        path = tmp_path / f"deep{levels}.xml"
        path.write_text("<testsuite>" + "<testsuite>" * (levels - 2) + '<testcase name="deep"/>'
                        + "</testsuite>" * (levels - 2) + "</testsuite>")
        return path

    assert [c.name for c in parse_junit([nested(junit.MAX_REPORT_DEPTH)]).cases] == ["deep"]
    with pytest.raises(JUnitError, match=rf"^deep{junit.MAX_REPORT_DEPTH + 1}\.xml: elements nested deeper than "
                                         rf"{junit.MAX_REPORT_DEPTH} levels$"):
        parse_junit([nested(junit.MAX_REPORT_DEPTH + 1)])

    first, second = tmp_path / "TEST-a.xml", tmp_path / "TEST-b.xml"
    first.write_text('<testsuite><testcase name="a"/><testcase name="b"/></testsuite>')  # 3 elements
    second.write_text('<testsuite><testcase name="c"><skipped/></testcase></testsuite>')  # 3 elements
    monkeypatch.setattr(junit, "MAX_REPORT_ELEMENTS", 6)
    assert parse_junit([first, second]).total == 3
    monkeypatch.setattr(junit, "MAX_REPORT_ELEMENTS", 5)
    with pytest.raises(JUnitError, match=r"^TEST-b\.xml: the reports hold more than 5 elements$"):
        parse_junit([first, second])
    monkeypatch.undo()

    assert parse_junit([first, second], max_cases=3).total == 3
    with pytest.raises(ForgedReport, match=r"^TEST-b\.xml: more than 2 cases$") as info:
        parse_junit([first, second], max_cases=2)
    assert info.value.why == "more than 2 cases"


@pytest.mark.timeout(20)
def test_every_forged_report_says_why_in_fixed_words_and_names_the_file(tmp_path, monkeypatch):
    """`why` is shown to the team as it is ("the test reports hold <why>: ...", TaskRun._read_reports), so it is
    fixed words; the message names the file. A link or FIFO is forged wherever it is in the list, a missing report
    before it included."""
    from core.grading import junit
    from core.grading.junit import ForgedReport

    fifo, link, secret = _fifo_and_link(tmp_path)
    not_regular = "a report that is not a regular file (a link, FIFO or device)"
    for path in (fifo, link):
        with pytest.raises(ForgedReport, match=rf"^{path.name}: cannot read report \(not a regular file: a link, "
                                               r"FIFO or device\)$") as info:
            parse_junit([tmp_path / "TEST-absent.xml", secret, path])
        assert info.value.why == not_regular

    os.link(secret, tmp_path / "TEST-second-name.xml")
    with pytest.raises(ForgedReport, match=r"^secret\.xml: report with 2 links$") as info:
        parse_junit([secret])
    assert info.value.why == "a report file that is a hard link"

    plain = [tmp_path / f"TEST-{k}.xml" for k in range(3)]
    for path in plain:
        path.write_text('<testsuite><testcase name="a"/></testsuite>')
    monkeypatch.setattr(junit, "MAX_REPORT_FILES", 2)
    with pytest.raises(ForgedReport) as info:
        parse_junit(plain)
    assert info.value.why == "more than 2 report files"


@pytest.mark.timeout(20)
def test_a_report_swapped_after_the_kind_check_is_opened_without_following_or_waiting(tmp_path):
    """parse_junit checks every file's kind first, then reads each: a file the process under test turns into a
    link or a FIFO in between is opened without following the link and without waiting for a writer on the FIFO,
    and refused as forged (white-box: the read of one file, after its kind was checked)."""
    from core.grading.junit import ForgedReport, _read_file

    fifo, link, _ = _fifo_and_link(tmp_path)  # the FIFO has no writer: a blocking open would wait forever
    with pytest.raises(ForgedReport, match=r"^TEST-zz\.Link\.xml: cannot read report \(not a regular file: a "
                                           r"link\)$") as info:
        _read_file(link, 1024)
    assert info.value.why == "a report that is not a regular file (a link, FIFO or device)"

    with pytest.raises(ForgedReport, match=r"^TEST-zz\.Fifo\.xml: cannot read report \(not a regular file: a "
                                           r"link, FIFO or device\)$") as info:
        _read_file(fifo, 1024)
    assert info.value.why == "a report that is not a regular file (a link, FIFO or device)"


def test_an_unreadable_report_is_named_and_refused(tmp_path):
    """An open that fails for another reason than a missing file or a link, and a read that fails (a file that
    gives an I/O error: /proc/self/mem at offset 0), are 'unreadable', named."""
    plain = tmp_path / "plain.xml"
    plain.write_text('<testsuite><testcase name="a"/></testsuite>')
    with pytest.raises(JUnitError, match=r"^TEST-x\.xml: cannot read report \(unreadable\)$"):
        parse_junit([plain / "TEST-x.xml"])  # a path through a regular file: ENOTDIR
    with pytest.raises(JUnitError, match=r"^mem: cannot read report \(unreadable\)$"):
        parse_junit([Path("/proc/self/mem")])


def test_a_report_longer_than_its_size_says_is_read_to_its_budget_only(monkeypatch):
    """The size from fstat is checked first, but a file may hold more than it says (one still being written;
    here a /proc file, whose size is 0): at most the budget and one byte are read, then it is refused."""
    import tracemalloc

    from core.grading import junit
    from core.grading.junit import _read_file

    smaps = Path("/proc/self/smaps")
    assert smaps.stat().st_size == 0 and len(smaps.read_bytes()) > 256 * 1024  # larger than it says, by far
    monkeypatch.setattr(junit, "MAX_REPORT_BYTES", 1000)
    with pytest.raises(JUnitError, match=r"^smaps: report larger than 1000 bytes$"):
        parse_junit([smaps])
    tracemalloc.start()
    try:
        with pytest.raises(JUnitError):
            _read_file(smaps, 1000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 1024
