"""Failure taxonomy (docs/scoring.md "Failure taxonomy")."""
from __future__ import annotations

from core.grading.taxonomy import DEPLOYED, GROUPS, LABELS, SCORED, Outcome


def test_outcome_values_are_the_scoring_strings():
    assert [o.value for o in Outcome] == [
        "passed", "tests_failed", "tests_timeout", "not_http", "start_timeout", "start_crashed", "no_start_script",
        "build_failed", "install_failed", "invalid_layout", "missing", "tampered", "harness_error",
    ]
    assert Outcome("tests_failed") is Outcome.TESTS_FAILED
    assert Outcome.PASSED == "passed" and str(Outcome.PASSED) == "passed"


def test_groups_and_labels():
    assert set(GROUPS) == set(LABELS) == set(Outcome)
    by_group: dict[str, set[str]] = {}
    for outcome, group in GROUPS.items():
        by_group.setdefault(group, set()).add(outcome.value)
    assert by_group == {
        "dependency": {"install_failed", "build_failed"},
        "deployment": {"no_start_script", "start_crashed", "start_timeout", "not_http"},
        "logic": {"tests_failed", "tests_timeout"},
        "submission": {"missing", "invalid_layout", "tampered"},
        "passed": {"passed"},
        "platform": {"harness_error"},
    }
    assert GROUPS[Outcome("not_http")] == "deployment"
    assert all(label and label[0].isupper() for label in LABELS.values())


def test_deployed_and_scored():
    assert {o.value for o in DEPLOYED} == {"passed", "tests_failed", "tests_timeout", "tampered"}
    assert Outcome.HARNESS_ERROR not in SCORED and len(SCORED) == len(Outcome) - 1
