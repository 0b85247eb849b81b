"""Leaderboard ranking (docs/scoring.md "Ranking")."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from core.grading.ranking import RankInput, rank_rows

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def row(key, p, ac, dsr, minutes, per_task=None):
    return RankInput(key=key, pass_at_1=p, ac=ac, dsr=dsr, submitted_at=T0 + timedelta(minutes=minutes),
                     per_task_pass=per_task if per_task is not None else [p] * 10)


def test_order_and_shared_ranks():
    rows = [
        row("late-twin", 0.5, 0.7, 0.9, 30),
        row("low", 0.1, 0.9, 1.0, 0),
        row("best", 0.6, 0.1, 0.5, 50),
        row("early-twin", 0.50001, 0.70002, 0.9, 10),  # equal to late-twin after rounding to 4 decimals
        row("better-ac", 0.5, 0.8, 0.2, 40),
        row("no-ac", 0.5, None, 1.0, 5),  # AC n/a sorts below any AC
        row("more-dsr", 0.5, 0.7, 1.0, 60),
    ]
    ranked = rank_rows(rows)
    assert [(r.key, r.rank) for r in ranked] == [
        ("best", 1),
        ("better-ac", 2),
        ("more-dsr", 3),
        ("early-twin", 4),
        ("late-twin", 4),
        ("no-ac", 6),
        ("low", 7),
    ]


def test_ranks_1_2_2_4():
    ranked = rank_rows([row("a", 0.9, 0.5, 1, 0), row("b", 0.8, 0.5, 1, 1), row("c", 0.8, 0.5, 1, 2),
                        row("d", 0.7, 0.5, 1, 3)])
    assert [r.rank for r in ranked] == [1, 2, 2, 4]


def test_tied_with_leader():
    leader_tasks = [1.0, 0.8, 0.6, 0.4, 0.9, 0.7, 0.5, 0.3, 0.2, 0.1]
    close = [1.0, 0.8, 0.6, 0.4, 0.9, 0.7, 0.5, 0.3, 0.2, 0.0]
    far = [0.0] * 10
    rows = [
        row("leader", sum(leader_tasks) / 10, 0.5, 1, 0, leader_tasks),
        row("close", sum(close) / 10, 0.5, 1, 1, close),
        row("far", 0.0, 0.5, 1, 2, far),
    ]
    ranked = rank_rows(rows)
    assert [(r.key, r.tied_with_leader) for r in ranked] == [("leader", False), ("close", True), ("far", False)]
    assert ranked[0].row is rows[0]


def test_empty_and_mismatched():
    assert rank_rows([]) == []
    with pytest.raises(ValueError):
        rank_rows([row("a", 0.9, 0.5, 1, 0, [0.9] * 10), row("b", 0.1, 0.5, 1, 0, [0.1] * 9)])


def test_significance_groups_chain_overlapping_rows_and_agree_with_the_paired_interval():
    from core.grading.bootstrap import paired_difference_interval
    from core.grading.ranking import significance_groups

    top = [1.0] * 20
    near = [1.0] * 18 + [0.0] * 2  # 2 tasks from top: not separable from it
    middle = [1.0] * 16 + [0.0] * 4  # 2 tasks from near, 4 from top
    bottom = [0.0] * 20
    groups = significance_groups([top, near, middle, None, bottom])
    for i, a in enumerate([top, near, middle]):
        for j, b in enumerate([top, near, middle]):
            lo, hi = paired_difference_interval(a, b)
            assert (j in groups[i]) == (lo <= 0 <= hi), (i, j)  # each pair as a direct computation says
    assert groups[0] == (0, 1) and groups[1] == (0, 1, 2) and groups[2] == (1, 2)  # bands overlap: a chain
    assert groups[3] is None  # a published row has no per-task values
    assert groups[4] == (4,)  # far from everyone: a band of its own
    assert all(i in g for i, g in enumerate(groups) if g is not None)


def test_significance_groups_refuse_lists_of_different_lengths():
    from core.grading.ranking import significance_groups

    assert significance_groups([]) == []
    with pytest.raises(ValueError):
        significance_groups([[0.5] * 10, [0.4] * 9])
