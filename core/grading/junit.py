"""Test results from JUnit XML reports: pytest `--junitxml` and Maven Surefire `TEST-*.xml`
(docs/scoring.md "The test phase": results come only from the runner's report file).

Only each case's name, class name and status are kept. Failure messages, assertion text, captured output
and properties are never read into the result (docs/scoring.md "What a submitter may see").

The reports are written where submitted code may run (in-process and white-box suites), so reading them is bounded
whatever they hold: the files are read with one streaming parser that builds no tree, at most MAX_REPORT_BYTES over
all of them, at most MAX_REPORT_FILES files, each a regular file with a single link, and the parse stops at the
caller's case limit (red team round 13: one 64 MiB report of 6.1 M bare `<testcase/>` hard-linked under four
`TEST-*.xml` names took the worker 13.4 GB and 814 s).
"""
from __future__ import annotations

import enum
import os
import stat
from xml.parsers import expat
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

#: The reports of one run together may hold at most this many bytes (a runner that ran submitted code could write
#: anything); past it they are refused.
MAX_REPORT_BYTES = 64 * 1024 * 1024
#: A run may leave at most this many report files (surefire writes one per test class).
MAX_REPORT_FILES = 1000
#: Elements nested deeper than this (a legitimate report nests suites a few levels) are refused.
MAX_REPORT_DEPTH = 64
#: At most this many elements are read over all the reports (a report has a few per case, and its properties).
MAX_REPORT_ELEMENTS = 1_000_000


class JUnitError(ValueError):
    """A report file is missing, empty, too large, not XML, or not a JUnit report. The message names the file
    and the problem, never the file's content."""


class ForgedReport(JUnitError):
    """The reports have a shape no test run writes: a report file that is a link, FIFO, device or a file with more
    than one name (a hard link), more report files than MAX_REPORT_FILES, or more cases than the caller's limit.
    `why` says which in fixed words (no file name: the process under test chose those)."""

    def __init__(self, message: str, why: str) -> None:
        super().__init__(message)
        self.why = why


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


def parse_junit(paths: list[Path], *, max_cases: int | None = None) -> JUnitResult:
    """Parse JUnit XML reports (roots `<testsuites>` or `<testsuite>`, nested suites allowed).

    Status of a `<testcase>` from its direct children: `<failure>` -> failed, else `<error>` -> error, else
    `<skipped>` -> skipped (pytest writes xfail as `<skipped type="pytest.xfail">`), else passed. Surefire's
    `<flakyFailure>`/`<flakyError>` (a rerun that finally passed) leave the case passed; `<rerunFailure>` comes with
    `<failure>`. A report with no test case is valid (total 0).
    Each file is read without following a link in its last component and only when it is a regular file with one
    link (the process under test may have left a link, a FIFO or a hard link in its place).
    Raises ForgedReport (a JUnitError) when any file is not a regular file or has more than one link, when there
    are more than MAX_REPORT_FILES files, or when the reports hold more than `max_cases` cases (None: no limit):
    the parse stops there. Raises JUnitError for an empty `paths` list and for any file that is missing, empty,
    has a DOCTYPE/entity declaration, is not well-formed, nests elements deeper than MAX_REPORT_DEPTH or has
    another root element, and when the files together are larger than `MAX_REPORT_BYTES` or hold more than
    MAX_REPORT_ELEMENTS elements.
    """
    if not paths:
        raise JUnitError("no report file")
    paths = [Path(p) for p in paths]
    if len(paths) > MAX_REPORT_FILES:
        raise ForgedReport(f"{len(paths)} report files, more than {MAX_REPORT_FILES:,}",
                           f"more than {MAX_REPORT_FILES:,} report files")
    for path in paths:  # every file's kind first: a link or FIFO anywhere is forged, whatever the others hold
        try:
            info = os.lstat(path)
        except OSError:
            continue  # missing: _read_file says so in its turn
        _check_kind(path.name, info)
    reader = _Reader(max_cases)
    budget = MAX_REPORT_BYTES
    for path in paths:
        data = _read_file(path, budget)
        budget -= len(data)
        reader.parse(path.name, data)
    return JUnitResult(tuple(reader.cases))


def _check_kind(name: str, info: os.stat_result) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise ForgedReport(f"{name}: cannot read report (not a regular file: a link, FIFO or device)",
                           "a report that is not a regular file (a link, FIFO or device)")
    if info.st_nlink != 1:
        raise ForgedReport(f"{name}: report with {info.st_nlink} links", "a report file that is a hard link")


def _read_file(path: Path, budget: int) -> bytes:
    """The bytes of the report at `path`, at most `budget` (else JUnitError), opened without following a link and
    without blocking on a FIFO, and checked again once open (regular, one link)."""
    name = path.name
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise JUnitError(f"{name}: cannot read report (No such file or directory)") from None
    except OSError:
        if os.path.islink(path):
            raise ForgedReport(f"{name}: cannot read report (not a regular file: a link)",
                               "a report that is not a regular file (a link, FIFO or device)") from None
        raise JUnitError(f"{name}: cannot read report (unreadable)") from None
    try:
        info = os.fstat(fd)
        _check_kind(name, info)
        if info.st_size > budget:
            raise JUnitError(f"{name}: report larger than {budget} bytes")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(budget + 1)
    except OSError:
        raise JUnitError(f"{name}: cannot read report (unreadable)") from None
    finally:
        os.close(fd)
    if len(data) > budget:
        raise JUnitError(f"{name}: report larger than {budget} bytes")
    if not data.strip():
        raise JUnitError(f"{name}: empty report")
    return data


class _Stop(Exception):
    """Raised from a parser handler to end the parse at once (its `error` is what parse_junit raises)."""

    def __init__(self, error: JUnitError) -> None:
        self.error = error


class _Reader:
    """One streaming parse (expat, no tree) over the reports of a run: `cases` in document order. Each handler
    call keeps only the open test cases' names and the children they have seen."""

    def __init__(self, max_cases: int | None) -> None:
        self.max_cases = max_cases
        self.cases: list[TestCase] = []
        self.elements = 0

    def parse(self, name: str, data: bytes) -> None:
        depth = 0
        open_cases: list[tuple[int, int, set[str]]] = []  # (index in cases, depth, local names of its children)

        def start(tag: str, attrs: dict[str, str]) -> None:
            nonlocal depth
            depth += 1
            self.elements += 1
            local = _local(tag)
            if depth == 1 and local not in ("testsuites", "testsuite"):
                raise _Stop(JUnitError(f"{name}: root element <{local}> is not <testsuites> or <testsuite>"))
            if depth > MAX_REPORT_DEPTH:
                raise _Stop(JUnitError(f"{name}: elements nested deeper than {MAX_REPORT_DEPTH} levels"))
            if self.elements > MAX_REPORT_ELEMENTS:
                raise _Stop(JUnitError(f"{name}: the reports hold more than {MAX_REPORT_ELEMENTS:,} elements"))
            if open_cases and open_cases[-1][1] == depth - 1:
                open_cases[-1][2].add(local)
            if local == "testcase":
                if self.max_cases is not None and len(self.cases) >= self.max_cases:
                    raise _Stop(ForgedReport(f"{name}: more than {self.max_cases} cases",
                                             f"more than {self.max_cases} cases"))
                open_cases.append((len(self.cases), depth, set()))
                self.cases.append(TestCase(name=_attribute(attrs, "name"), classname=_attribute(attrs, "classname"),
                                           status=Status.PASSED))

        def end(tag: str) -> None:
            nonlocal depth
            if open_cases and open_cases[-1][1] == depth:
                index, _, children = open_cases.pop()
                case = self.cases[index]
                self.cases[index] = TestCase(name=case.name, classname=case.classname, status=_status(children))
            depth -= 1

        def doctype(*_args: object) -> None:
            raise _Stop(JUnitError(f"{name}: DOCTYPE or entity declarations are not allowed"))

        parser = expat.ParserCreate(namespace_separator="}")
        parser.StartElementHandler = start
        parser.EndElementHandler = end
        parser.StartDoctypeDeclHandler = doctype
        parser.EntityDeclHandler = doctype
        try:
            parser.Parse(data, True)
        except _Stop as stop:
            raise stop.error from None
        except expat.ExpatError as exc:
            raise JUnitError(f"{name}: not well-formed XML (line {exc.lineno}, column {exc.offset})") from None


def _attribute(attrs: dict[str, str], key: str) -> str:
    return attrs.get(key, "")


def _status(children: set[str]) -> Status:
    if "failure" in children:
        return Status.FAILED
    if "error" in children:
        return Status.ERROR
    if "skipped" in children:
        return Status.SKIPPED
    return Status.PASSED


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""
