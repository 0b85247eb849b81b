"""Leaderboard order, shared ranks and statistical ties with the leader (docs/scoring.md "Ranking").

Only rows with a finished evaluation may be passed in: the caller filters the others out.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from datetime import datetime

from .bootstrap import DEFAULT_RESAMPLES, DEFAULT_SEED, paired_difference_intervals
from .metrics import contains_zero

#: `intervals(a, others, resamples=, seed=)`: the paired interval of mean(a - b) for each b of `others`, in order
#: (bootstrap.paired_difference_intervals, or a caller's cache in front of it).
PairedIntervals = Callable[..., list[tuple[float, float]]]

#: Values are compared after rounding to this many decimals.
DECIMALS = 4


@dataclass(frozen=True)
class RankInput:
    """One leaderboard row: aggregate Pass@1, AC (None: no task declares endpoints), DSR, submission time, and the
    per-task Pass@1 in the split's task order (for the paired bootstrap; None for a row known only by its
    aggregates, such as a published result, whose tie with the leader cannot be computed)."""

    key: Hashable
    pass_at_1: float
    ac: float | None
    dsr: float
    submitted_at: datetime
    per_task_pass: tuple[float, ...] | list[float] | None


@dataclass(frozen=True)
class RankedRow:
    """`rank` is shared by rows equal on rounded (Pass@1, AC, DSR): 1, 2, 2, 4. `tied_with_leader`: the paired
    bootstrap interval with row #1 contains 0 (always False for the first row; None when this row or the leader
    has no per-task results)."""

    key: Hashable
    rank: int
    tied_with_leader: bool | None
    row: RankInput


def _metrics_key(row: RankInput) -> tuple[float, float, float]:
    ac = -1.0 if row.ac is None else row.ac
    return (round(row.pass_at_1, DECIMALS), round(ac, DECIMALS), round(row.dsr, DECIMALS))


def _ties_with_leader(ordered: Sequence[RankInput], *, resamples: int, seed: int,
                      intervals: PairedIntervals) -> dict[int, bool]:
    """{id(row): tied with ordered[0]} for every later row with per-task values when the leader has them (the
    paired interval of mean(leader - row) contains 0: metrics.paired_tie_with_leader, computed for all rows at
    once and once per distinct per-task list)."""
    if not ordered or ordered[0].per_task_pass is None:
        return {}
    leader = list(ordered[0].per_task_pass)
    others = [r for r in ordered[1:] if r.per_task_pass is not None]
    distinct = list(dict.fromkeys(tuple(r.per_task_pass) for r in others))
    bounds = dict(zip(distinct, intervals(leader, [list(d) for d in distinct], resamples=resamples, seed=seed)))
    return {id(r): contains_zero(bounds[tuple(r.per_task_pass)]) for r in others}


def rank_rows(
    rows: Sequence[RankInput], *, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
    intervals: PairedIntervals = paired_difference_intervals,
) -> list[RankedRow]:
    """Rows in leaderboard order: Pass@1 desc, AC desc (None last), DSR desc, then earlier `submitted_at`, all metric
    comparisons on values rounded to 4 decimals (so order and shared ranks agree); `str(key)` breaks full ties.
    Raises ValueError when a row's `per_task_pass` differs in length from the leader's or is empty.
    A row without `per_task_pass` (None) is ranked on its aggregates; its tie marker is None.
    `submitted_at` values must be all naive or all aware (else TypeError, as datetime comparison raises).
    `intervals` computes the paired intervals of the tie marker (a cache may stand in front of the bootstrap).
    """
    ordered = sorted(
        rows,
        key=lambda r: (tuple(-v for v in _metrics_key(r)), r.submitted_at, str(r.key)),
    )
    ranked: list[RankedRow] = []
    leader = ordered[0] if ordered else None
    ties = _ties_with_leader(ordered, resamples=resamples, seed=seed, intervals=intervals)
    previous: tuple[float, float, float] | None = None
    rank = 0
    for position, row in enumerate(ordered, start=1):
        key = _metrics_key(row)
        if key != previous:
            rank, previous = position, key
        tied = False if row is leader else ties.get(id(row))
        ranked.append(RankedRow(key=row.key, rank=rank, tied_with_leader=tied, row=row))
    return ranked


def significance_groups(
    per_task_pass: Sequence[Sequence[float] | None], *, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
    intervals: PairedIntervals = paired_difference_intervals,
) -> list[tuple[int, ...] | None]:
    """Each row's significance group (docs/scoring.md "Significance groups"): for the rows of one view in board
    order, given their per-task Pass@1 (same tasks, same order; None for a row known only by its aggregates), the
    0-based positions of the rows not significantly different from it, itself included, ascending. Two rows are
    not significantly different when the 95% paired bootstrap interval of the mean per-task Pass@1 difference
    (tasks resampled jointly, the seeded resamples of the "≈#1" marker) contains 0; the relation is symmetric, so
    each pair is computed once (by `intervals`). A row without per-task values gets None and is in no other row's
    group. Raises ValueError when two lists differ in length or one is empty."""
    groups: list[list[int] | None] = [None if v is None else [i] for i, v in enumerate(per_task_pass)]
    for i, a in enumerate(per_task_pass):
        if a is None:
            continue
        later = [j for j in range(i + 1, len(per_task_pass)) if per_task_pass[j] is not None]
        bounds = intervals(list(a), [list(per_task_pass[j]) for j in later], resamples=resamples, seed=seed)
        for j, ci in zip(later, bounds):
            if contains_zero(ci):  # metrics.paired_tie_with_leader's rule, for all later rows at once
                groups[i].append(j)
                groups[j].append(i)
    return [None if g is None else tuple(sorted(g)) for g in groups]
