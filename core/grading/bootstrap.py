"""Percentile bootstrap intervals over tasks (docs/scoring.md "Aggregates" and "Ranking").

Resampling plans (which task indices each resample draws) depend only on (number of tasks, resamples, seed), so
they are drawn once, cached, and shared by every metric and every paired comparison. Intervals of many rows at once
(`mean_intervals`: the ties with #1 and the significance groups of a board) are computed with numpy on the same
plan, bit for bit equal to the one-row path: each resample's sum adds its values left to right, as Python's `sum`
does on 3.11 (numpy's cumulative sum, not its pairwise `sum`), so a tie decided at an interval bound of exactly 0
is decided alike on both paths.
"""
from __future__ import annotations

import functools
import math
import random

import numpy as np
from collections.abc import Callable, Sequence
from operator import itemgetter

DEFAULT_RESAMPLES = 10_000
DEFAULT_SEED = 20260101
LEVEL = 0.95

Getter = Callable[[Sequence[float]], tuple[float, ...]]


@functools.lru_cache(maxsize=8)
def resample_plan(n: int, resamples: int, seed: int) -> tuple[Getter, ...]:
    """`resamples` getters; each maps a length-`n` sequence to one bootstrap resample of it (a tuple of n values,
    drawn with replacement by `random.Random(seed)`). Raises ValueError when n < 1 or resamples < 1."""
    if n < 1 or resamples < 1:
        raise ValueError("a bootstrap needs at least one task and one resample")
    if n == 1:
        single: Getter = lambda values: (values[0],)  # noqa: E731 - itemgetter(i) would return a scalar
        return (single,) * resamples
    rng = random.Random(seed)
    population = range(n)
    return tuple(itemgetter(*rng.choices(population, k=n)) for _ in range(resamples))


@functools.lru_cache(maxsize=8)
def plan_matrix(n: int, resamples: int, seed: int) -> np.ndarray:
    """The plan of `resample_plan(n, resamples, seed)` as a read-only (resamples, n) array of task indices (the same
    draws of `random.Random(seed)`, row r = the indices resample r takes). Raises ValueError as resample_plan."""
    if n < 1 or resamples < 1:
        raise ValueError("a bootstrap needs at least one task and one resample")
    if n == 1:
        matrix = np.zeros((resamples, 1), dtype=np.intp)
    else:
        rng = random.Random(seed)
        population = range(n)
        matrix = np.array([rng.choices(population, k=n) for _ in range(resamples)], dtype=np.intp)
    matrix.setflags(write=False)
    return matrix


#: Bytes of resampled values held at once by `mean_intervals` (rows are processed in chunks under it).
CHUNK_BYTES = 64 * 1024 * 1024


def mean_intervals(
    rows: Sequence[Sequence[float]], *, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED
) -> list[tuple[float, float]]:
    """`mean_interval` of each row (all rows of one length n >= 1, one value per task), computed together: a list of
    (lo, hi) in row order, each equal bit for bit to `mean_interval(row)`. Memory stays under about CHUNK_BYTES
    whatever the number of rows. Raises ValueError when the rows differ in length or are empty."""
    if not rows:
        return []
    n = len(rows[0])
    if n == 0 or any(len(r) != n for r in rows):
        raise ValueError("every row needs the same number (at least one) of per-task values")
    plan = plan_matrix(n, resamples, seed)
    values = np.asarray(rows, dtype=np.float64)
    tail = (1.0 - LEVEL) / 2.0
    out: list[tuple[float, float]] = []
    step = max(1, CHUNK_BYTES // (resamples * n * 8))
    for start in range(0, len(values), step):
        drawn = values[start:start + step][:, plan]  # (rows, resamples, n)
        # left-to-right sums (np.cumsum), + 0.0 as Python's sum starting from 0 turns a -0.0 total into 0.0
        means = (np.cumsum(drawn, axis=2)[:, :, -1] + 0.0) / n
        means.sort(axis=1)
        for stats in means:
            out.append((_percentile_of(stats, tail), _percentile_of(stats, 1.0 - tail)))
    return out


def _percentile_of(sorted_values: np.ndarray, q: float) -> float:
    """`percentile` of an ascending numpy vector: the same arithmetic on the two order statistics, as Python
    floats."""
    position = q * (len(sorted_values) - 1)
    low = math.floor(position)
    high = min(low + 1, len(sorted_values) - 1)
    below, above = float(sorted_values[low]), float(sorted_values[high])
    return below + (above - below) * (position - low)


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The q-quantile (0 <= q <= 1) of ascending `sorted_values`, linear interpolation between order statistics
    (numpy's default). Raises ValueError on an empty sequence."""
    if not sorted_values:
        raise ValueError("percentile of nothing")
    position = q * (len(sorted_values) - 1)
    low = math.floor(position)
    high = min(low + 1, len(sorted_values) - 1)
    fraction = position - low
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * fraction


def interval(statistics: list[float], *, level: float = LEVEL) -> tuple[float, float]:
    """Percentile interval (lo, hi) of bootstrap `statistics` at `level` (0.95 -> 2.5th and 97.5th percentiles).
    Sorts `statistics` in place."""
    statistics.sort()
    tail = (1.0 - level) / 2.0
    return percentile(statistics, tail), percentile(statistics, 1.0 - tail)


def mean_interval(
    values: Sequence[float], *, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED
) -> tuple[float, float]:
    """95% percentile bootstrap interval of the mean of `values` (one value per task). ValueError when empty."""
    if not values:
        raise ValueError("a bootstrap needs at least one task and one resample")
    return mean_intervals([values], resamples=resamples, seed=seed)[0]


def paired_difference_interval(
    a: Sequence[float], b: Sequence[float], *, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED
) -> tuple[float, float]:
    """95% interval of mean(a - b) with tasks resampled jointly (same task order in both).
    ValueError when the lengths differ or are 0."""
    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length ({len(a)} != {len(b)})")
    differences = [x - y for x, y in zip(a, b)]
    return mean_interval(differences, resamples=resamples, seed=seed)


def paired_difference_intervals(
    a: Sequence[float], others: Sequence[Sequence[float]], *, resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> list[tuple[float, float]]:
    """`paired_difference_interval(a, b)` for every b of `others` (same task order), computed together
    (`mean_intervals`): a list of (lo, hi) in the order of `others`, equal bit for bit to the one-pair results.
    ValueError when a length differs from len(a) or is 0."""
    for b in others:
        if len(b) != len(a):
            raise ValueError(f"paired samples differ in length ({len(a)} != {len(b)})")
    return mean_intervals([[x - y for x, y in zip(a, b)] for b in others], resamples=resamples, seed=seed)
