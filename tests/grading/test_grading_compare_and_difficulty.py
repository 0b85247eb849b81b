"""Comparing two systems and task difficulty without a database (docs/scoring.md "Comparing two systems", "Task
difficulty and discrimination"): the numbers `/compare/`, `/tasks/`, the matrix and their APIs show, pinned.
The database-backed views are tested in tests/leaderboard/test_research_compare.py and test_research_tasks.py."""
from __future__ import annotations

import pytest

from core.grading.metrics import PairedComparison, TaskDifficulty, paired_comparison, task_difficulty

# Eight tasks: A wins 1.0/0.5, 0.5004/0.5 (on the 4th decimal), 0.25/0.0 and 0.6/0.2; ties 0.75/0.75 and
# 0.50001/0.5 (equal on 4 decimals); loses 0.0/0.25 and 0.3/0.35.
A = [1.0, 0.5004, 0.25, 0.0, 0.75, 0.6, 0.50001, 0.3]
B = [0.5, 0.5, 0.0, 0.25, 0.75, 0.2, 0.5, 0.35]


def close(value):
    return pytest.approx(value, abs=1e-12)


def test_a_comparison_reports_both_means_the_difference_and_its_seeded_paired_interval():
    assert paired_comparison(A, B).as_dict() == {
        "tasks": 8, "mean_a": close(0.48755125), "mean_b": close(0.38125), "difference": close(0.10630125),
        "difference_ci": close([-0.04995, 0.2750536875]), "significant": False, "wins": 4, "ties": 2, "losses": 2}


def test_the_comparison_passes_its_seed_and_resample_count_to_the_bootstrap():
    assert paired_comparison(A, B, seed=1).difference_ci == close((-0.04999878125000001, 0.26885))
    assert paired_comparison(A, B, resamples=1000).difference_ci == close((-0.04989878125000002, 0.28125003125))
    assert paired_comparison(A, B, seed=1, resamples=1000).difference_ci == close((-0.04390371874999986,
                                                                                  0.26875125))


def test_wins_ties_and_losses_compare_pass_at_1_on_four_decimals():
    # either side may differ from the other beyond the 4th decimal only: a tie
    c = paired_comparison([0.5004, 0.50001, 0.4996, 0.49999, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.49996, 0.50004])
    assert (c.wins, c.ties, c.losses) == (1, 4, 1)


def test_a_clear_difference_is_significant_either_way_round():
    ahead = paired_comparison([1.0, 1.0, 0.9, 0.8], [0.0, 0.2, 0.1, 0.0])
    assert ahead.as_dict() == {
        "tasks": 4, "mean_a": close(0.925), "mean_b": close(0.075), "difference": close(0.85),
        "difference_ci": close([0.8, 0.95]), "significant": True, "wins": 4, "ties": 0, "losses": 0}
    behind = paired_comparison([0.0, 0.2, 0.1, 0.0], [1.0, 1.0, 0.9, 0.8])
    assert (behind.difference_ci, behind.significant) == (close((-0.95, -0.8)), True)
    assert (behind.wins, behind.ties, behind.losses) == (0, 0, 4)


@pytest.mark.parametrize("ci, significant", [
    ((0.0, 0.5), False), ((-0.5, 0.0), False), ((0.0, 0.0), False), ((1e-9, 0.5), True), ((-0.5, -1e-9), True)])
def test_an_interval_touching_zero_is_not_significant(ci, significant):
    c = PairedComparison(tasks=2, mean_a=0.5, mean_b=0.5, difference=0.0, difference_ci=ci, wins=1, ties=0, losses=1)
    assert c.significant is significant
    assert c.as_dict()["significant"] is significant


def test_a_comparison_of_mismatched_or_no_tasks_says_what_is_wrong():
    with pytest.raises(ValueError, match=r"^paired samples differ in length \(1 != 2\)$"):
        paired_comparison([1.0], [1.0, 0.0])
    with pytest.raises(ValueError, match="^a bootstrap needs at least one task and one resample$"):
        paired_comparison([], [])


@pytest.mark.parametrize("solved, label", [
    ([0] * 10, "never solved"),
    ([1] + [0] * 9, "discriminating"),  # one system of ten solves it
    ([1] * 8 + [0] * 2, "discriminating"),  # 80%
    ([1] * 9 + [0], "saturated"),  # 90%: the boundary is saturated
    ([1] * 10, "saturated"),
    ([True] * 9 + [False], "saturated"),
])
def test_the_difficulty_label_at_both_sides_of_each_boundary(solved, label):
    pass_values = [1.0 if s else 0.5 for s in solved]
    assert task_difficulty(pass_values=pass_values, solved_values=solved).label == label


def test_just_under_ninety_percent_solved_is_discriminating():
    d = task_difficulty(pass_values=[1.0] * 8 + [0.5], solved_values=[1] * 8 + [0])
    assert (d.solved_share, d.label) == (close(8 / 9), "discriminating")


def test_difficulty_reports_the_solved_share_mean_and_population_spread():
    d = task_difficulty(pass_values=[1.0, 0.5, 0.0, 0.25], solved_values=[1, 0, 0, 0])
    assert d.as_dict() == {"systems": 4, "solved_share": 0.25, "mean_pass_at_1": close(0.4375),
                           "spread": close(0.369754986443726), "label": "discriminating"}
    d = task_difficulty(pass_values=[1.0] * 9 + [0.5], solved_values=[1] * 9 + [0])
    assert d.as_dict() == {"systems": 10, "solved_share": close(0.9), "mean_pass_at_1": close(0.95),
                           "spread": close(0.15), "label": "saturated"}
    d = task_difficulty(pass_values=[0.9, 0.2, 0.1], solved_values=[False, False, False])
    assert d.as_dict() == {"systems": 3, "solved_share": 0.0, "mean_pass_at_1": close(0.4),
                           "spread": close(0.3559026084010437), "label": "never solved"}


def test_a_task_no_system_is_scored_on_has_no_difficulty():
    assert task_difficulty(pass_values=[], solved_values=[]).as_dict() == {
        "systems": 0, "solved_share": None, "mean_pass_at_1": None, "spread": None, "label": None}


def test_difficulty_as_dict_holds_each_field_under_its_own_name():
    d = TaskDifficulty(systems=7, solved_share=0.25, mean_pass_at_1=0.5, spread=0.125, label="discriminating")
    assert d.as_dict() == {"systems": 7, "solved_share": 0.25, "mean_pass_at_1": 0.5, "spread": 0.125,
                           "label": "discriminating"}


def test_difficulty_of_unequal_lists_says_how_many_of_each():
    with pytest.raises(ValueError, match=r"^2 Pass@1 values but 1 Solved values$"):
        task_difficulty(pass_values=[1.0, 0.5], solved_values=[1])
