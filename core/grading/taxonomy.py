"""Task outcomes of docs/scoring.md "Failure taxonomy", the chart groups they fall in and their labels.

`Outcome` values are the strings stored on task results and written to reports.
"""
from __future__ import annotations

import enum


class Outcome(str, enum.Enum):
    """The outcome of one task evaluation: the first phase that failed, or `passed`/`tests_failed`."""

    PASSED = "passed"
    TESTS_FAILED = "tests_failed"
    TESTS_TIMEOUT = "tests_timeout"
    NOT_HTTP = "not_http"
    START_TIMEOUT = "start_timeout"
    START_CRASHED = "start_crashed"
    NO_START_SCRIPT = "no_start_script"
    BUILD_FAILED = "build_failed"
    INSTALL_FAILED = "install_failed"
    INVALID_LAYOUT = "invalid_layout"
    MISSING = "missing"
    TAMPERED = "tampered"  # the platform's sentinel tests came back wrong: the report was forged (scored 0)
    HARNESS_ERROR = "harness_error"

    def __str__(self) -> str:
        return self.value


class Group(str, enum.Enum):
    """Failure-breakdown groups of docs/scoring.md "Failure taxonomy" (the breakdown chart)."""

    PASSED = "passed"
    LOGIC = "logic"
    DEPLOYMENT = "deployment"
    DEPENDENCY = "dependency"
    SUBMISSION = "submission"
    PLATFORM = "platform"

    def __str__(self) -> str:
        return self.value


#: Outcome -> group.
GROUPS: dict[Outcome, Group] = {
    Outcome.PASSED: Group.PASSED,
    Outcome.TESTS_FAILED: Group.LOGIC,
    Outcome.TESTS_TIMEOUT: Group.LOGIC,
    Outcome.NOT_HTTP: Group.DEPLOYMENT,
    Outcome.START_TIMEOUT: Group.DEPLOYMENT,
    Outcome.START_CRASHED: Group.DEPLOYMENT,
    Outcome.NO_START_SCRIPT: Group.DEPLOYMENT,
    Outcome.BUILD_FAILED: Group.DEPENDENCY,
    Outcome.INSTALL_FAILED: Group.DEPENDENCY,
    Outcome.INVALID_LAYOUT: Group.SUBMISSION,
    Outcome.MISSING: Group.SUBMISSION,
    Outcome.TAMPERED: Group.SUBMISSION,
    Outcome.HARNESS_ERROR: Group.PLATFORM,
}

#: Outcome -> short human label for pages and charts.
LABELS: dict[Outcome, str] = {
    Outcome.PASSED: "All tests passed",
    Outcome.TESTS_FAILED: "Some tests failed",
    Outcome.TESTS_TIMEOUT: "Test suite timed out",
    Outcome.NOT_HTTP: "Port open, no HTTP reply",
    Outcome.START_TIMEOUT: "Service never opened its port",
    Outcome.START_CRASHED: "Service crashed on start",
    Outcome.NO_START_SCRIPT: "No start.sh found",
    Outcome.BUILD_FAILED: "Maven build failed",
    Outcome.INSTALL_FAILED: "Dependency install failed",
    Outcome.INVALID_LAYOUT: "Invalid submission layout",
    Outcome.MISSING: "Task folder missing",
    Outcome.TAMPERED: "Test report tampered (scored 0)",
    Outcome.HARNESS_ERROR: "Platform error (retried)",
}

GROUP_LABELS: dict[Group, str] = {
    Group.PASSED: "Passed",
    Group.LOGIC: "Logic",
    Group.DEPLOYMENT: "Deployment",
    Group.DEPENDENCY: "Dependency",
    Group.SUBMISSION: "Submission",
    Group.PLATFORM: "Platform",
}

#: Outcomes after which the service was up (phases 1-4 succeeded): DSR = 1 (docs/scoring.md "Metrics per task").
DEPLOYED: frozenset[Outcome] = frozenset({Outcome.PASSED, Outcome.TESTS_FAILED, Outcome.TESTS_TIMEOUT,
                                         Outcome.TAMPERED})

#: Outcomes that are scored; `harness_error` is a platform fault and never scored.
SCORED: tuple[Outcome, ...] = tuple(o for o in Outcome if o is not Outcome.HARNESS_ERROR)
