"""Per-task metrics, macro means and bootstrap intervals (docs/scoring.md "Metrics per task", "Aggregates")."""
from __future__ import annotations

import random

import pytest

from core.grading import bootstrap
from core.grading.metrics import (
    Aggregate,
    ac_ratio,
    aggregate,
    aggregate_by_language,
    paired_tie_with_leader,
    task_score,
)
from core.grading.taxonomy import Outcome


def score(task="t", language="python", outcome="tests_failed", dsr=1, ac=0.5, passed=3, total=10, reported=0):
    return task_score(task=task, language=language, outcome=outcome, dsr=dsr, ac=ac, tests_passed=passed,
                      tests_total=total, reported_total=reported)


def test_task_score_pass_at_1_and_solved():
    s = score(passed=3, total=10)
    assert (s.pass_at_1, s.solved, s.tests_total, s.outcome) == (0.3, False, 10, Outcome.TESTS_FAILED)
    s = score(outcome="passed", passed=10, total=10)
    assert (s.pass_at_1, s.solved) == (1.0, True)
    # the run reported more cases than stored: N is the larger count
    s = score(passed=12, total=10, reported=15)
    assert (s.tests_total, s.pass_at_1) == (15, 0.8)
    # a service that never came up scores 0 with the same N
    s = score(outcome="start_timeout", dsr=0, ac=None, passed=0, total=25)
    assert (s.pass_at_1, s.solved, s.tests_total, s.dsr, s.ac) == (0.0, False, 25, 0, None)
    # N = 0 gives 0 and is never solved
    s = score(outcome="tests_failed", passed=0, total=0)
    assert (s.pass_at_1, s.solved) == (0.0, False)
    assert s.as_dict() == {"task": "t", "language": "python", "outcome": "tests_failed", "dsr": 1, "ac": 0.5,
                           "tests_passed": 0, "tests_total": 0, "pass_at_1": 0.0, "solved": 0}


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"outcome": "harness_error"}, "never scored"),
        ({"outcome": "exploded"}, "exploded"),
        ({"passed": 11, "total": 10}, "exceeds"),
        ({"passed": -1}, "negative"),
        ({"ac": 1.5}, "ac"),
        ({"dsr": 2}, "dsr"),
        ({"outcome": "install_failed", "dsr": 1, "passed": 0}, "contradicts"),
        ({"outcome": "tests_failed", "dsr": 0, "passed": 0}, "contradicts"),
        ({"outcome": "missing", "dsr": 0, "passed": 2}, "never came up"),
        ({"outcome": "passed", "passed": 9, "total": 10}, "passed with 9/10"),
    ],
)
def test_task_score_rejects_inconsistent_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        score(**kwargs)


def test_ac_ratio():
    assert ac_ratio(implemented=3, declared=4) == 0.75
    assert ac_ratio(implemented=0, declared=0) is None
    with pytest.raises(ValueError):
        ac_ratio(implemented=5, declared=4)


def mixed_scores() -> list:
    rng = random.Random(7)
    scores = []
    for i in range(30):
        language = "python" if i < 22 else "java"
        if i % 7 == 3:
            scores.append(score(task=f"t{i}", language=language, outcome="install_failed", dsr=0, ac=None, passed=0))
            continue
        total = rng.randint(5, 40)
        passed = total if i % 5 == 0 else rng.randint(0, total - 1)
        scores.append(score(task=f"t{i}", language=language, outcome="passed" if passed == total else "tests_failed",
                            ac=None if i % 4 == 0 else rng.random(), passed=passed, total=total))
    return scores


def test_aggregate_means_and_intervals():
    scores = mixed_scores()
    agg = aggregate(scores)
    assert agg.tasks == 30
    assert agg.pass_at_1 == pytest.approx(sum(s.pass_at_1 for s in scores) / 30)
    assert agg.solved == pytest.approx(sum(s.solved for s in scores) / 30)
    assert agg.dsr == pytest.approx(sum(s.dsr for s in scores) / 30)
    with_ac = [s.ac for s in scores if s.ac is not None]
    assert agg.ac_tasks == len(with_ac) < 30
    assert agg.ac == pytest.approx(sum(with_ac) / len(with_ac))  # AC over tasks that declare endpoints only
    for value, (lo, hi) in [(agg.pass_at_1, agg.pass_at_1_ci), (agg.solved, agg.solved_ci),
                            (agg.dsr, agg.dsr_ci), (agg.ac, agg.ac_ci)]:
        assert 0.0 <= lo < value < hi <= 1.0
    assert agg.outcomes["install_failed"] == 4  # tasks 3, 10, 17, 24
    assert agg.outcomes["passed"] + agg.outcomes["tests_failed"] == 26
    assert sum(agg.outcomes.values()) == 30
    assert "harness_error" not in agg.outcomes


def test_bootstrap_is_deterministic_and_seeded():
    """The same seed draws the same resamples on a cold cache (a second read of one cache entry proves nothing)."""
    scores = mixed_scores()
    bootstrap.resample_plan.cache_clear()
    first = aggregate(scores, seed=1)
    bootstrap.resample_plan.cache_clear()
    assert aggregate(scores, seed=1) == first
    assert aggregate(scores, seed=1).pass_at_1_ci != aggregate(scores, seed=2).pass_at_1_ci
    # the uncached draw behind the cache is the same plan
    probe = list(range(30))
    fresh = bootstrap.resample_plan.__wrapped__(30, 10_000, 1)
    assert [g(probe) for g in fresh] == [g(probe) for g in bootstrap.resample_plan(30, 10_000, 1)]


def test_all_equal_scores_give_zero_width_intervals():
    scores = [score(task=f"t{i}", passed=1, total=4, ac=0.5) for i in range(12)]
    agg = aggregate(scores)
    assert agg.pass_at_1_ci == (0.25, 0.25) and agg.pass_at_1 == 0.25
    assert agg.ac_ci == (0.5, 0.5)
    assert agg.dsr_ci == (1.0, 1.0)
    assert agg.solved_ci == (0.0, 0.0)


def test_single_task_and_no_ac():
    agg = aggregate([score(ac=None, passed=2, total=8)])
    assert (agg.tasks, agg.pass_at_1, agg.pass_at_1_ci, agg.ac, agg.ac_ci) == (1, 0.25, (0.25, 0.25), None, None)
    assert agg.as_dict()["ac_ci"] is None
    with pytest.raises(ValueError):
        aggregate([])


def test_as_dict_has_the_report_shape():
    d = aggregate(mixed_scores()).as_dict()
    assert set(d) == {"tasks", "pass_at_1", "pass_at_1_ci", "solved", "solved_ci", "dsr", "dsr_ci", "ac", "ac_ci",
                      "outcomes"}
    assert isinstance(d["pass_at_1_ci"], list) and len(d["pass_at_1_ci"]) == 2
    assert all(isinstance(k, str) for k in d["outcomes"])


def test_aggregate_by_language():
    scores = mixed_scores()
    result = aggregate_by_language(scores)
    assert list(result["by_language"]) == ["java", "python"]
    assert result["overall"].tasks == 30
    assert result["by_language"]["python"].tasks == 22 and result["by_language"]["java"].tasks == 8
    python = [s for s in scores if s.language == "python"]
    assert result["by_language"]["python"].pass_at_1 == pytest.approx(sum(s.pass_at_1 for s in python) / 22)
    assert isinstance(result["overall"], Aggregate)


def test_percentile_interpolates_like_numpy():
    values = [1.0, 2.0, 3.0, 4.0]
    assert bootstrap.percentile(values, 0.0) == 1.0
    assert bootstrap.percentile(values, 1.0) == 4.0
    assert bootstrap.percentile(values, 0.5) == 2.5
    assert bootstrap.percentile(values, 0.025) == pytest.approx(1.075)


def test_paired_tie_with_leader():
    rng = random.Random(3)
    leader = [rng.random() for _ in range(30)]
    assert paired_tie_with_leader(leader, list(leader)) is True
    slightly_worse = [max(0.0, v - (0.05 if i % 3 == 0 else -0.03)) for i, v in enumerate(leader)]
    assert paired_tie_with_leader(leader, slightly_worse) is True
    much_worse = [v * 0.5 for v in leader]
    assert paired_tie_with_leader(leader, much_worse) is False
    with pytest.raises(ValueError):
        paired_tie_with_leader(leader, leader[:-1])


def test_task_scores_built_from_report_strings_aggregate_like_enums():
    from core.grading.metrics import TaskScore

    direct = TaskScore(task="a", language="java", outcome="start_crashed", dsr=0, ac=None, tests_passed=0,
                       tests_total=5, pass_at_1=0.0, solved=False)
    assert direct.outcome is Outcome.START_CRASHED
    agg = aggregate([direct, score(task="b", outcome="passed", passed=10, total=10)])
    assert agg.outcomes["start_crashed"] == 1 and agg.outcomes["passed"] == 1
    with pytest.raises(ValueError):
        TaskScore(task="a", language="java", outcome="exploded", dsr=0, ac=None, tests_passed=0, tests_total=5,
                  pass_at_1=0.0, solved=False)
