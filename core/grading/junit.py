"""Test results from JUnit XML reports: pytest `--junitxml` and Maven Surefire `TEST-*.xml`
(docs/scoring.md "The test phase": results come only from the runner's report file).

Only each case's name, class name and status are kept. Failure messages, assertion text, captured output
and properties are never read into the result (docs/scoring.md "What a submitter may see").
"""
from __future__ import annotations

import enum
import xml.etree.ElementTree as ET
from xml.parsers import expat
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .untrusted_files import read_regular

#: Reports larger than this are refused (a runner that ran submitted code could write anything).
MAX_REPORT_BYTES = 64 * 1024 * 1024


class JUnitError(ValueError):
    """A report file is missing, empty, too large, not XML, or not a JUnit report. The message names the file
    and the problem, never the file's content."""


class Status(str, enum.Enum):
    """Status of one test case. Only `passed` counts as passed (docs/scoring.md "Metrics per task")."""

    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"
    SKIPPED = "skipped"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class TestCase:
    """One `<testcase>`: `name`, `classname` (may be ""), `status`."""

    __test__ = False  # not a pytest test class

    name: str
    classname: str
    status: Status


@dataclass(frozen=True)
class JUnitResult:
    """All cases of one or more reports, in file and document order."""

    cases: tuple[TestCase, ...] = field(default_factory=tuple)

    @property
    def total(self) -> int:
        """Number of `<testcase>` elements."""
        return len(self.cases)

    @property
    def passed(self) -> int:
        """Cases with status `passed`."""
        return sum(1 for c in self.cases if c.status is Status.PASSED)

    @property
    def counts(self) -> dict[Status, int]:
        """Cases per status, every status present (0 when none)."""
        counter = Counter(c.status for c in self.cases)
        return {s: counter.get(s, 0) for s in Status}


def parse_junit(paths: list[Path]) -> JUnitResult:
    """Parse JUnit XML reports (roots `<testsuites>` or `<testsuite>`, nested suites allowed).

    Status of a `<testcase>` from its direct children: `<failure>` -> failed, else `<error>` -> error, else
    `<skipped>` -> skipped (pytest writes xfail as `<skipped type="pytest.xfail">`), else passed. Surefire's
    `<flakyFailure>`/`<flakyError>` (a rerun that finally passed) leave the case passed; `<rerunFailure>` comes with
    `<failure>`. A report with no test case is valid (total 0).
    Each file is read without following a link in its last component and only when it is a regular file
    (untrusted_files.read_regular: the process under test may have left a link or a FIFO in its place).
    Raises JUnitError for an empty `paths` list and for any file that is missing, not a regular file, empty, larger than
    `MAX_REPORT_BYTES`, has a DOCTYPE/entity declaration, is not well-formed, or has another root element.
    """
    if not paths:
        raise JUnitError("no report file")
    cases: list[TestCase] = []
    for path in paths:
        cases.extend(_parse_file(Path(path)))
    return JUnitResult(tuple(cases))


def _parse_file(path: Path) -> list[TestCase]:
    name = path.name
    if not path.exists() and not path.is_symlink():
        raise JUnitError(f"{name}: cannot read report (No such file or directory)")
    data = read_regular(path, MAX_REPORT_BYTES + 1)  # never a link, FIFO or device (red team round 11)
    if data is None:
        raise JUnitError(f"{name}: cannot read report (not a regular file, or unreadable)")
    if len(data) > MAX_REPORT_BYTES:
        raise JUnitError(f"{name}: report larger than {MAX_REPORT_BYTES} bytes")
    if not data.strip():
        raise JUnitError(f"{name}: empty report")
    if _has_doctype(data):
        raise JUnitError(f"{name}: DOCTYPE or entity declarations are not allowed")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        line, column = exc.position
        raise JUnitError(f"{name}: not well-formed XML (line {line}, column {column})") from None
    if _local(root.tag) not in ("testsuites", "testsuite"):
        raise JUnitError(f"{name}: root element <{_local(root.tag)}> is not <testsuites> or <testsuite>")
    return [_case(el) for el in root.iter() if _local(el.tag) == "testcase"]


class _RootReached(Exception):
    pass


def _has_doctype(data: bytes) -> bool:
    """True when the prolog declares a DOCTYPE (entity expansion attacks need one). Stops at the root element,
    so `<!DOCTYPE` inside CDATA (captured output) does not count."""

    def doctype(*_args: object) -> None:
        raise _DoctypeFound

    def root(*_args: object) -> None:
        raise _RootReached

    parser = expat.ParserCreate()
    parser.StartDoctypeDeclHandler = doctype
    parser.StartElementHandler = root
    try:
        parser.Parse(data, True)
    except _DoctypeFound:
        return True
    except (_RootReached, expat.ExpatError):
        return False
    return False


class _DoctypeFound(Exception):
    pass


def _case(el: ET.Element) -> TestCase:
    children = {_local(child.tag) for child in el}
    if "failure" in children:
        status = Status.FAILED
    elif "error" in children:
        status = Status.ERROR
    elif "skipped" in children:
        status = Status.SKIPPED
    else:
        status = Status.PASSED
    return TestCase(name=el.get("name", ""), classname=el.get("classname", ""), status=status)


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""
