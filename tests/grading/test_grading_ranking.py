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
