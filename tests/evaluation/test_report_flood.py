"""Red team round 13, finding 1: a flood of report cases. Code in the in-process test JVM wrote one report of just
under 64 MiB (6.1 M bare `<testcase/>`) and hard-linked it under four `TEST-*.xml` names; the worker read every
name as a file of its own, built a tree and a case object per element, and only then called the run `tampered`:
24.4 M cases, 13.4 GB of worker memory, 814 s (400 links, the attack as intended, OOM-killed the worker on every
retry). A report file with more than one link is now refused before any is read, and the parse stops a margin past
the most cases an honest run reports (core.grading.junit.parse_junit, TaskRun._read_reports). White-box: the reports
are written here as the test JVM left them; the parse's own limits are in tests/grading/test_grading_junit.py."""
from __future__ import annotations

import os
import time
import tracemalloc

from core.engine.runner import REPORT_CASE_MARGIN, TaskRun
from core.engine.sentinels import CASES_PER_RUN
from core.grading import junit
from core.sandbox import ExecResult
from tests.sandbox_helpers import java_task_run

HIDDEN_TEST = """package tests;

import org.junit.jupiter.api.Test;

public class ApiTest {
""" + "".join(f"    @Test\n    void test{k}() {{\n    }}\n" for k in range(15)) + "}\n"


def _java_run(tmp_path) -> TaskRun:
    return java_task_run(tmp_path, HIDDEN_TEST, 15)


def _flood(path, cases: int):
    path.write_bytes(b"<testsuite>" + b"<testcase/>" * cases + b"</testsuite>")
    return path


#: Maven's console of a run that ended normally (what surefire prints does not matter: the reports are refused first).
CONSOLE = "[INFO] Results:\n[INFO] Tests run: 18, Failures: 1, Errors: 0, Skipped: 1\n[INFO] BUILD SUCCESS\n"


def test_a_report_hard_linked_under_many_names_is_tampered_before_any_is_read(tmp_path):
    run = _java_run(tmp_path)
    reports = tmp_path / "surefire-reports"
    reports.mkdir()
    first = _flood(reports / "TEST-zz.flood0000.xml", 50_000)
    for k in range(1, 4):  # the reproducer's four names (400 in the attack as intended), one file
        os.link(first, reports / f"TEST-zz.flood{k:04d}.xml")
    started = time.monotonic()
    tracemalloc.start()
    try:
        why = run._read_reports(sorted(reports.glob("TEST-*.xml")), console=CONSOLE,
                                run=ExecResult(0, CONSOLE, False, 1.0))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert why == ("the test reports hold a report file that is a hard link: code of the submission wrote into the "
                   "reports folder")
    assert time.monotonic() - started < 5 and peak < 8 * 2**20  # nothing of the flood was read
    assert (run.cases, run.passed, run.total) == ((), 0, 15)


def test_one_flood_without_links_stops_at_the_case_limit(tmp_path):
    """Even one report of just under 64 MiB (no links) cost 1.3 GB and 40 s: the parse stops REPORT_CASE_MARGIN cases
    past N and the sentinels, and the run is tampered."""
    run = _java_run(tmp_path)
    flood = _flood(tmp_path / "TEST-zz.flood.xml", (junit.MAX_REPORT_BYTES - 30) // len(b"<testcase/>"))
    started = time.monotonic()
    tracemalloc.start()
    try:
        why = run._read_reports([flood], console=CONSOLE, run=ExecResult(0, CONSOLE, False, 1.0))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    limit = 15 + CASES_PER_RUN + REPORT_CASE_MARGIN
    assert why == (f"the test reports hold more than {limit} cases: code of the submission wrote into the reports "
                   "folder")
    assert time.monotonic() - started < 10 and peak < junit.MAX_REPORT_BYTES + 16 * 2**20
    assert (run.cases, run.passed, run.total) == ((), 0, 15)
