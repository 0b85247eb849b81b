"""Every number the site publishes, pinned exactly (docs/scoring.md "Aggregates", "Ranking").

The point estimates are easy to check by hand; the intervals, ranks and ties are not, so a change to the number of
resamples, the seed, the level, the pairing or the rounding would pass unnoticed unless the published values are
written down. The pinned values below were computed once with the documented parameters (10,000 resamples, seed
20260101, 95% level) by calling the function under test in a fresh interpreter, e.g.

    PYTHONPATH=. .venv/bin/python -c "from core.grading import bootstrap; print(bootstrap.mean_interval(VALUES))"

and each comment says which mutation of the scoring core the assertion catches. They must only change together
with docs/scoring.md (and the scoring specification's version).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from core.grading import bootstrap
from core.grading.metrics import aggregate, aggregate_by_language, paired_tie_with_leader, task_score
from core.grading.ranking import RankInput, rank_rows

ROOT = Path(__file__).resolve().parents[2]

#: Ten per-task Pass@1 values (a fixed input for the bare bootstrap).
VALUES = [0.0, 0.25, 0.5, 0.75, 1.0, 0.1, 0.9, 0.3, 0.6, 0.45]
#: bootstrap.mean_interval(VALUES) at 10,000 resamples, seed 20260101, level 0.95.
VALUES_CI = (0.29000000000000004, 0.6799999999999999)


def pinned(value):
    """Equal to the pinned float up to rounding noise; every mutant listed moves it by more than 1e-4."""
    if isinstance(value, (tuple, list)):
        return pytest.approx(tuple(value), abs=1e-12)
    return pytest.approx(value, abs=1e-12)


def fixed_scores():
    """30 tasks (22 Python, 8 Java): varied Pass@1, 2 solved, 3 not deployed, some without declared endpoints."""
    scores = []
    for i in range(30):
        language = "python" if i < 22 else "java"
        total = 10 + i % 7
        if i % 9 == 4:  # tasks 4, 13, 22: the service crashed (AC 0 or n/a)
            scores.append(task_score(task=f"t{i:02d}", language=language, outcome="start_crashed", dsr=0,
                                     ac=None if i % 2 else 0.0, tests_passed=0, tests_total=total))
            continue
        passed = (i * 7) % (total + 1)
        scores.append(task_score(task=f"t{i:02d}", language=language,
                                 outcome="passed" if passed == total else "tests_failed", dsr=1,
                                 ac=None if i % 5 == 0 else (i % 4 + 1) / 4, tests_passed=passed, tests_total=total))
    return scores


#: aggregate_by_language(fixed_scores()) with the documented defaults: {view: {field: value}}.
FIXED_SUMMARY = {
    "overall": {"tasks": 30, "pass_at_1": 0.4167596292596293, "pass_at_1_ci": (0.3043062562437563, 0.5305261544011544),
                "solved": 0.06666666666666667, "solved_ci": (0.0, 0.16666666666666666),
                "dsr": 0.9, "dsr_ci": (0.8, 1.0), "ac": 0.5869565217391305, "ac_ci": (0.45, 0.7261904761904762)},
    "python": {"tasks": 22, "pass_at_1": 0.4066743862198408,
               "pass_at_1_ci": (0.28330981518481524, 0.5344559417854873),
               "solved": 0.045454545454545456, "solved_ci": (0.0, 0.13636363636363635),
               "dsr": 0.9090909090909091, "dsr_ci": (0.7727272727272727, 1.0),
               "ac": 0.609375, "ac_ci": (0.45588235294117646, 0.75)},
    "java": {"tasks": 8, "pass_at_1": 0.4444940476190476, "pass_at_1_ci": (0.1913690476190476, 0.7059523809523809),
             "solved": 0.125, "solved_ci": (0.0, 0.375), "dsr": 0.875, "dsr_ci": (0.625, 1.0),
             "ac": 0.5357142857142857, "ac_ci": (0.25, 0.8125)},
}


# --- the bootstrap's documented parameters ------------------------------------------------------------------------
def test_the_documented_parameters_are_the_defaults():
    """docs/scoring.md "Aggregates": 10,000 resamples, a fixed seed, 2.5th and 97.5th percentiles."""
    assert bootstrap.DEFAULT_RESAMPLES == 10_000
    assert bootstrap.LEVEL == 0.95
    assert bootstrap.DEFAULT_SEED == 20260101


def test_mean_interval_of_a_fixed_input_is_pinned():
    # Catches: 80% instead of 95%, Random() without the seed, 1,000 resamples, the last task never drawn.
    assert bootstrap.mean_interval(VALUES) == pinned(VALUES_CI)
    # Each documented parameter matters on this input: a mutant that ignores one would give the pinned value here.
    assert bootstrap.mean_interval(VALUES, seed=1) == pinned((0.29000000000000004, 0.6849999999999999))
    assert bootstrap.mean_interval(VALUES, resamples=1_000) == pinned((0.28500000000000003, 0.675))
    statistics = [sum(g(VALUES)) / len(VALUES) for g in bootstrap.resample_plan(10, 10_000, bootstrap.DEFAULT_SEED)]
    assert bootstrap.interval(list(statistics)) == pinned(VALUES_CI)
    assert bootstrap.interval(list(statistics), level=0.80) == pinned((0.35500000000000004, 0.615))


def test_the_cached_plan_equals_a_freshly_drawn_one():
    """The cache only saves time: a plan drawn without it (the function behind the cache) is the same draw."""
    cached = bootstrap.resample_plan(10, 10_000, bootstrap.DEFAULT_SEED)
    fresh = bootstrap.resample_plan.__wrapped__(10, 10_000, bootstrap.DEFAULT_SEED)
    probe = list(range(10))
    assert [g(probe) for g in fresh] == [g(probe) for g in cached]
    assert len(fresh) == 10_000


@pytest.mark.parametrize("n", [2, 3, 10, 30])
def test_every_task_is_drawn_by_some_resample(n):
    # Catches a plan that never draws the last (or any) task: a one-hot input at that index would read as all 0.
    for i in range(n):
        one_hot = [1.0 if k == i else 0.0 for k in range(n)]
        lo, hi = bootstrap.mean_interval(one_hot)
        assert hi > 0.0, f"task {i} of {n} is never resampled"
        assert lo == 0.0  # and some resample misses it: the draw is with replacement


def test_mean_interval_is_reproducible_across_processes():
    """Two interpreters (different hash seeds, cold caches) publish the same interval as this one."""
    code = ("import json; from core.grading import bootstrap; from tests.grading.test_published_numbers import "
            "VALUES, fixed_scores; from core.grading.metrics import aggregate_by_language; "
            "g = aggregate_by_language(fixed_scores()); "
            "print(json.dumps([bootstrap.mean_interval(VALUES), g['overall'].pass_at_1_ci, "
            "g['by_language']['python'].ac_ci]))")
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": hash_seed}
        proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=120, check=True)
        outputs.append(json.loads(proc.stdout))
    assert outputs[0] == outputs[1]
    here = aggregate_by_language(fixed_scores())
    assert outputs[0] == [list(bootstrap.mean_interval(VALUES)), list(here["overall"].pass_at_1_ci),
                          list(here["by_language"]["python"].ac_ci)]
    assert tuple(outputs[0][0]) == pinned(VALUES_CI)


# --- every aggregate and interval of a stored summary -------------------------------------------------------------
def test_every_value_of_a_mixed_summary_is_pinned():
    # aggregate_by_language is the path of every stored summary: a seed or resample count dropped there (for the
    # overall view or a language) moves one of these intervals.
    grouped = aggregate_by_language(fixed_scores())
    views = {"overall": grouped["overall"], **grouped["by_language"]}
    assert list(grouped["by_language"]) == ["java", "python"]
    for view, expected in FIXED_SUMMARY.items():
        got = views[view].as_dict()
        for name, value in expected.items():
            assert got[name] == pinned(value), f"{view} {name}"
    assert views["overall"].outcomes["start_crashed"] == 3 and views["overall"].outcomes["passed"] == 2
    assert views["overall"].ac_tasks == 23  # 30 tasks, 7 without declared endpoints


def test_the_summary_changes_with_each_documented_parameter():
    """The pinned summary is sensitive to the seed and the resample count, so pinning it pins them."""
    scores = fixed_scores()
    other_seed = aggregate_by_language(scores, seed=1)
    fewer = aggregate_by_language(scores, resamples=1_000)
    for grouped in (other_seed, fewer):
        assert grouped["overall"].pass_at_1_ci != pinned(FIXED_SUMMARY["overall"]["pass_at_1_ci"])
        assert grouped["by_language"]["python"].pass_at_1_ci != pinned(FIXED_SUMMARY["python"]["pass_at_1_ci"])
        assert grouped["by_language"]["java"].pass_at_1_ci != pinned(FIXED_SUMMARY["java"]["pass_at_1_ci"])


def test_ac_interval_is_over_tasks_that_declare_endpoints():
    # AC's interval is the ratio of sums over the drawn tasks that declare endpoints: never null when some do.
    scores = fixed_scores()
    agg = aggregate(scores)
    assert agg.ac_ci is not None and agg.ac_ci[0] < agg.ac < agg.ac_ci[1]
    without_ac = [task_score(task=s.task, language=s.language, outcome=s.outcome, dsr=s.dsr, ac=None,
                             tests_passed=s.tests_passed, tests_total=s.tests_total) for s in scores]
    assert aggregate(without_ac).ac_ci is None and aggregate(without_ac).ac is None


def test_the_worked_example_of_the_docs():
    """The worked example of docs/scoring.md (Demo Agent Alpha): 76.1% [60.9%, 90.0%]; Python 75.4% [58.2, 92.5]."""
    rows = [("Bookstore", "python", 8, 18, 1.0), ("InventoryService", "java", 12, 15, 6 / 7),
            ("Notes", "python", 15, 15, 1.0), ("Tic-Tac-Toe", "python", 18, 20, 1.0),
            ("TodoList", "python", 14, 17, 5 / 6), ("UserManagement_2", "python", 12, 20, 1.0)]
    scores = [task_score(task=t, language=lang, outcome="passed" if p == n else "tests_failed", dsr=1, ac=ac,
                         tests_passed=p, tests_total=n) for t, lang, p, n, ac in rows]
    grouped = aggregate_by_language(scores)
    overall, python, java = grouped["overall"], grouped["by_language"]["python"], grouped["by_language"]["java"]
    percent = lambda v: round(100 * v, 1)  # noqa: E731 - as the docs print them
    assert (percent(overall.pass_at_1), *map(percent, overall.pass_at_1_ci)) == (76.1, 60.9, 90.0)
    assert (percent(python.pass_at_1), *map(percent, python.pass_at_1_ci)) == (75.4, 58.2, 92.5)
    assert (java.pass_at_1, java.pass_at_1_ci) == (0.8, (0.8, 0.8))
    assert (percent(overall.dsr), percent(overall.solved), percent(overall.ac)) == (100.0, 16.7, 94.8)


# --- ranks at 4 decimals, from both sides -------------------------------------------------------------------------
T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def _row(key, *, p=0.5, ac=0.5, dsr=0.5, minutes=0):
    return RankInput(key=key, pass_at_1=p, ac=ac, dsr=dsr, submitted_at=T0 + timedelta(minutes=minutes),
                     per_task_pass=None)


@pytest.mark.parametrize("metric", ["p", "ac", "dsr"])
@pytest.mark.parametrize("other, shared", [
    (0.50004, True),   # rounds to 0.5000 at 4 decimals: the same rank (5 decimals would split them)
    (0.49996, True),   # from below: also 0.5000
    (0.50006, False),  # 0.5001: a rank of its own (3 decimals would merge them)
    (0.49994, False),  # 0.4999 from below (3 decimals would merge them)
])
def test_rank_boundary_is_4_decimals_from_both_sides(metric, other, shared):
    base = _row("base", minutes=0)
    challenger = _row("challenger", minutes=10, **{metric: other})
    ranked = {r.key: r.rank for r in rank_rows([challenger, base])}
    if shared:
        assert ranked == {"base": 1, "challenger": 1}
        # equal after rounding: the earlier submission is listed first, whatever the raw digits say
        assert [r.key for r in rank_rows([challenger, base])] == ["base", "challenger"]
    else:
        better = "challenger" if other > 0.5 else "base"
        worse = "base" if better == "challenger" else "challenger"
        assert ranked == {better: 1, worse: 2}


# --- the tie with the leader is a paired bootstrap ----------------------------------------------------------------
#: A leader whose per-task Pass@1 varies a lot from task to task (so an unpaired comparison sees only noise).
LEADER = [1.0, 0.2, 0.9, 0.05, 0.7, 0.35, 0.95, 0.1, 0.6, 0.45, 0.85, 0.15, 0.8, 0.3, 0.65, 0.5, 0.75, 0.25, 0.55,
          0.4]


def _ranked_ties(leader, other):
    rows = [RankInput(key="leader", pass_at_1=sum(leader) / len(leader), ac=None, dsr=1.0, submitted_at=T0,
                      per_task_pass=leader),
            RankInput(key="other", pass_at_1=sum(other) / len(other), ac=None, dsr=1.0,
                      submitted_at=T0 + timedelta(minutes=1), per_task_pass=other)]
    return {r.key: r.tied_with_leader for r in rank_rows(rows)}


def test_a_constant_small_gap_on_every_task_is_not_a_tie():
    # Paired by task, the difference is 0.02 on every task, so its interval is [0.02, 0.02]: not a tie. An unpaired
    # bootstrap (each row resampled on its own) would see a 0.02 gap inside the task-to-task spread and call a tie.
    other = [v - 0.02 for v in LEADER]
    lo, hi = bootstrap.paired_difference_interval(LEADER, other)
    assert (lo, hi) == pinned((0.02, 0.02))
    assert paired_tie_with_leader(LEADER, other) is False
    assert _ranked_ties(LEADER, other) == {"leader": False, "other": False}


def test_the_same_values_on_other_tasks_are_a_tie():
    # The other row's values shifted by one task: the means differ by 0.02 as above, but per task the rows now
    # disagree widely, so the paired interval contains 0. Sorting or resampling each row on its own would lose this.
    other = [v - 0.02 for v in LEADER[1:] + LEADER[:1]]
    assert paired_tie_with_leader(LEADER, other) is True
    assert _ranked_ties(LEADER, other) == {"leader": False, "other": True}


@pytest.mark.parametrize("shift, gap", [(0, 0.02), (1, 0.02), (0, 0.3), (3, 0.0)])
def test_reversing_the_task_order_of_both_rows_changes_nothing(shift, gap):
    other = [max(0.0, v - gap) for v in LEADER[shift:] + LEADER[:shift]]
    forward = _ranked_ties(LEADER, other)
    backward = _ranked_ties(LEADER[::-1], other[::-1])
    assert forward == backward
    assert paired_tie_with_leader(LEADER, other) == paired_tie_with_leader(LEADER[::-1], other[::-1])


def test_the_paired_interval_of_the_tie_marker_is_pinned():
    # The interval behind ≈#1 for the shifted row above, at the documented parameters; and each parameter is passed
    # through (a seed dropped or replaced by the default, or the default resample count forced, moves it).
    other = [v - 0.02 for v in LEADER[1:] + LEADER[:1]]
    assert bootstrap.paired_difference_interval(LEADER, other) == pinned((-0.21999999999999997, 0.26249999999999996))
    assert bootstrap.paired_difference_interval(LEADER, other, seed=1) == pinned((-0.21749999999999997,
                                                                                  0.26749999999999996))
    assert bootstrap.paired_difference_interval(LEADER, other, resamples=1_000) == pinned((-0.2225, 0.2600625))


def test_bootstrap_errors_say_what_is_wrong():
    with pytest.raises(ValueError, match=r"paired samples differ in length \(3 != 2\)"):
        bootstrap.paired_difference_interval([1.0, 0.5, 0.0], [1.0, 0.5])
    with pytest.raises(ValueError, match="^percentile of nothing$"):
        bootstrap.percentile([], 0.5)
    with pytest.raises(ValueError, match="at least one task and one resample"):
        bootstrap.resample_plan(0, 10, 1)
    with pytest.raises(ValueError, match="at least one task and one resample"):
        bootstrap.resample_plan(3, 0, 1)


@pytest.mark.parametrize("q, expected", [(0.9, 3.7), (0.7, 3.1), (0.34, 2.02), (1 / 3, 2.0), (0.0, 1.0), (1.0, 4.0)])
def test_percentile_interpolates_between_the_last_two_order_statistics_too(q, expected):
    """numpy's linear method, also between the two highest values (where the 97.5th percentile of few tasks lies)."""
    assert bootstrap.percentile([1.0, 2.0, 3.0, 4.0], q) == pytest.approx(expected)


def test_rank_rows_passes_its_seed_and_resample_count_to_the_tie_bootstrap():
    # A borderline pair: tied only under 30 resamples drawn with seed 7 (about 2% of seeds give a tie at 30
    # resamples, none at the documented 10,000). Catches rank_rows dropping either argument or the seed.
    leader = [0.9, 0.1, 0.8, 0.3, 0.7, 0.5, 0.6, 0.2]
    other = [0.7, 0.1, 0.6, 0.3, 0.5, 0.3, 0.4, 0.3]

    def tied(**kwargs):
        rows = [RankInput(key="leader", pass_at_1=sum(leader) / 8, ac=None, dsr=1.0, submitted_at=T0,
                          per_task_pass=leader),
                RankInput(key="other", pass_at_1=sum(other) / 8, ac=None, dsr=1.0, submitted_at=T0,
                          per_task_pass=other)]
        return rank_rows(rows, **kwargs)[1].tied_with_leader

    assert tied() is False
    assert tied(resamples=30, seed=7) is True
    assert tied(resamples=30) is False
    assert tied(seed=7) is False


def test_a_row_known_only_by_its_aggregates_has_no_tie_marker():
    """A verified published row shows "≈?" (None), as does every row when it
    leads; rows with per-task results keep theirs."""
    per_task = RankInput(key="ours", pass_at_1=0.5, ac=None, dsr=1.0, submitted_at=T0, per_task_pass=[0.5] * 4)
    published = RankInput(key="published", pass_at_1=0.4, ac=None, dsr=1.0, submitted_at=T0, per_task_pass=None)
    assert {r.key: r.tied_with_leader for r in rank_rows([per_task, published])} == {"ours": False,
                                                                                    "published": None}
    published_leads = RankInput(key="published", pass_at_1=0.9, ac=None, dsr=1.0, submitted_at=T0,
                                per_task_pass=None)
    assert {r.key: r.tied_with_leader for r in rank_rows([per_task, published_leads])} == {"published": False,
                                                                                          "ours": None}


def test_full_ties_are_listed_by_key():
    """Equal metrics and the same submission time: the order still never depends on the input order."""
    rows = [_row("b", minutes=5), _row("a", minutes=5), _row("c", minutes=5)]
    assert [r.key for r in rank_rows(rows)] == ["a", "b", "c"]
    assert [r.key for r in rank_rows(rows[::-1])] == ["a", "b", "c"]
    assert {r.rank for r in rank_rows(rows)} == {1}


# --- the per-task numbers behind every mean ---------------------------------------------------------------------
def test_paired_tie_with_leader_passes_its_seed_and_resample_count():
    leader = [0.9, 0.1, 0.8, 0.3, 0.7, 0.5, 0.6, 0.2]
    other = [0.7, 0.1, 0.6, 0.3, 0.5, 0.3, 0.4, 0.3]
    assert paired_tie_with_leader(leader, other) is False
    assert paired_tie_with_leader(leader, other, resamples=30, seed=7) is True
    assert paired_tie_with_leader(leader, other, resamples=30) is False
    assert paired_tie_with_leader(leader, other, seed=7) is False


def test_a_one_test_task_passed_is_solved():
    s = task_score(task="t", language="python", outcome="passed", dsr=1, ac=None, tests_passed=1, tests_total=1)
    assert (s.solved, s.pass_at_1) == (True, 1.0)


def test_n_is_the_stored_n_unless_the_run_reported_more():
    stored = task_score(task="t", language="python", outcome="tests_failed", dsr=1, ac=None, tests_passed=0,
                        tests_total=0)
    assert stored.tests_total == 0  # nothing reported: the stored N stands, even 0
    raised = task_score(task="t", language="python", outcome="tests_failed", dsr=1, ac=None, tests_passed=3,
                        tests_total=4, reported_total=6)
    assert (raised.tests_total, raised.pass_at_1) == (6, 0.5)


@pytest.mark.parametrize("kwargs, message", [
    ({"tests_total": -1}, "^test counts must not be negative$"),
    ({"reported_total": -1}, "^test counts must not be negative$"),
    ({"tests_passed": -1}, "^test counts must not be negative$"),
    ({"outcome": "missing", "dsr": 0, "tests_passed": 2}, "^a task whose service never came up passes no test$"),
    ({"outcome": "harness_error", "dsr": 0}, "^harness_error is a platform fault and is never scored$"),
])
def test_task_score_refuses_impossible_counts_with_its_reason(kwargs, message):
    base = dict(task="t", language="python", outcome="tests_failed", dsr=1, ac=None, tests_passed=0, tests_total=5)
    with pytest.raises(ValueError, match=message):
        task_score(**{**base, **kwargs})


def test_aggregate_and_ac_ratio_errors_say_what_is_wrong():
    from core.grading.metrics import ac_ratio

    with pytest.raises(ValueError, match="^cannot aggregate zero tasks$"):
        aggregate([])
    with pytest.raises(ValueError, match=r"^implemented endpoints 5 not within 0\.\.4$"):
        ac_ratio(implemented=5, declared=4)


def _plain_python_interval(values, resamples, seed):
    """The definition of docs/scoring.md "Aggregates", written out with nothing but Python: each resample's mean
    summed left to right, the statistics sorted, the 2.5th and 97.5th percentiles interpolated."""
    import random

    rng = random.Random(seed)
    n = len(values)
    draws = [[0] * n for _ in range(resamples)] if n == 1 else [rng.choices(range(n), k=n) for _ in range(resamples)]
    stats = sorted(sum(values[i] for i in draw) / n for draw in draws)
    return bootstrap.percentile(stats, 0.025), bootstrap.percentile(stats, 0.975)


@pytest.mark.parametrize("n", [1, 2, 7, 30])
def test_intervals_of_many_rows_are_bit_for_bit_those_of_the_definition(n):
    """The board's batched intervals (ties with #1, significance groups: numpy on the shared plan) equal the plain
    definition exactly, rows of equal values (a difference of exactly 0) and thirds (no exact binary value)
    included: a tie decided at a bound of exactly 0 must not flip between the two."""
    import random

    rng = random.Random(n)
    rows = [[0.0] * n, [1 / 3] * n, [rng.choice([0, 1 / 3, 2 / 3, 1, 14 / 15]) - rng.choice([0, 1 / 3, 1]) for _ in range(n)],
            [rng.random() for _ in range(n)], [(k % 3) / 3 - 1 / 3 for k in range(n)]]
    batched = bootstrap.mean_intervals(rows, resamples=2_000, seed=11)
    assert batched == [_plain_python_interval(r, 2_000, 11) for r in rows]
    assert batched[0] == (0.0, 0.0) and all(str(b) != "-0.0" for b in batched[0])


def test_batched_paired_intervals_split_into_chunks_agree_with_one_at_a_time(monkeypatch):
    """Rows processed in several memory chunks give each pair's own interval, in order."""
    monkeypatch.setattr(bootstrap, "CHUNK_BYTES", 1)  # one row per chunk
    leader = [1.0, 0.5, 0.0, 1.0, 2 / 3]
    others = [[1.0, 0.5, 0.0, 1.0, 2 / 3], [0.9, 0.4, 0.0, 0.9, 0.5], [0.0] * 5]
    assert bootstrap.paired_difference_intervals(leader, others, resamples=500, seed=3) == [
        bootstrap.paired_difference_interval(leader, o, resamples=500, seed=3) for o in others]
    assert [paired_tie_with_leader(leader, o, resamples=500, seed=3) for o in others] == [True, False, False]
