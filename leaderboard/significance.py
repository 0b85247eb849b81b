"""Significance groups of a board view (docs/scoring.md "Significance groups"), computed once per set of results and
kept in Django's cache.

The paired bootstrap costs a few ms per pair of rows at 10,000 resamples over 30 tasks (bench/bootstrap_speed.py;
0.36 s for 10 rows, 34 s for 100; a cache hit under 5 ms): too much for every request. The groups depend only on the rows' per-task
Pass@1 in board order, so the cache key is a digest of exactly those values (and of the resampling parameters): a
new, rescored or withdrawn result changes the ranked rows and so the key, and the next request computes the groups
once; every other request reads them.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from django.core.cache import cache

from core.grading.bootstrap import DEFAULT_RESAMPLES, DEFAULT_SEED, paired_difference_intervals
from core.grading.ranking import significance_groups

#: Bump when the rule of docs/scoring.md "Significance groups" changes: old entries are then never read.
RULE_VERSION = 1
#: Seconds an entry is kept; an entry is never stale (its key is its input), this only bounds the cache's size.
CACHE_SECONDS = 7 * 24 * 3600


def cache_key(per_task_pass: Sequence[Sequence[float] | None], *, resamples: int = DEFAULT_RESAMPLES,
              seed: int = DEFAULT_SEED) -> str:
    """The cache key of the groups of rows with these per-task Pass@1 lists (board order; None for a row without
    per-task values): `significance:v<RULE_VERSION>:<sha256 of the values, resamples and seed>`."""
    payload = json.dumps({"rows": [None if v is None else [repr(float(x)) for x in v] for v in per_task_pass],
                          "resamples": resamples, "seed": seed}, separators=(",", ":"))
    return f"significance:v{RULE_VERSION}:{hashlib.sha256(payload.encode()).hexdigest()}"


def cached_significance_groups(per_task_pass: Sequence[Sequence[float] | None], *,
                               resamples: int = DEFAULT_RESAMPLES,
                               seed: int = DEFAULT_SEED) -> list[tuple[int, ...] | None]:
    """`core.grading.ranking.significance_groups` of these rows, read from the cache when the same rows were grouped
    before, else computed and stored (CACHE_SECONDS). Same shapes and errors as significance_groups."""
    if not per_task_pass:
        return []
    key = cache_key(per_task_pass, resamples=resamples, seed=seed)
    found = cache.get(key)
    if found is not None:
        return [None if g is None else tuple(g) for g in found]
    groups = _groups_of_distinct_rows(per_task_pass, resamples=resamples, seed=seed)
    cache.set(key, [None if g is None else list(g) for g in groups], CACHE_SECONDS)
    return groups


def _groups_of_distinct_rows(per_task_pass: Sequence[Sequence[float] | None], *, resamples: int,
                             seed: int) -> list[tuple[int, ...] | None]:
    """significance_groups, with the paired bootstrap run once per pair of *distinct* per-task lists: rows with
    equal lists are never significantly different (their difference is 0 on every resample) and relate to every
    other row alike, so each row's group is the rows whose list is in its list's group. Same result as
    significance_groups on the rows themselves (tests/leaderboard/test_board_cache.py checks it)."""
    distinct: dict[tuple[float, ...], int] = {}
    index = [None if v is None else distinct.setdefault(tuple(float(x) for x in v), len(distinct))
             for v in per_task_pass]
    if len(distinct) == sum(i is not None for i in index):
        return significance_groups(per_task_pass, resamples=resamples, seed=seed, intervals=cached_paired_intervals)
    grouped = significance_groups([list(v) for v in distinct], resamples=resamples, seed=seed,
                                  intervals=cached_paired_intervals)
    members: dict[int, list[int]] = {}
    for row, i in enumerate(index):
        if i is not None:
            members.setdefault(i, []).append(row)
    return [None if i is None else tuple(sorted(r for g in grouped[i] for r in members[g])) for i in index]


def _pair_key(a: Sequence[float], b: Sequence[float], resamples: int, seed: int) -> str:
    payload = json.dumps([[repr(float(x)) for x in a], [repr(float(x)) for x in b], resamples, seed],
                         separators=(",", ":"))
    return f"paired:v{RULE_VERSION}:{hashlib.sha256(payload.encode()).hexdigest()}"


def cached_paired_intervals(a: Sequence[float], others: Sequence[Sequence[float]], *,
                            resamples: int = DEFAULT_RESAMPLES,
                            seed: int = DEFAULT_SEED) -> list[tuple[float, float]]:
    """`core.grading.bootstrap.paired_difference_intervals(a, others)`, each pair read from the cache when it was
    computed before (the key is a digest of both per-task lists, resamples and seed, so an entry is never stale),
    the others computed together and stored (CACHE_SECONDS). A new result then costs the board the pairs of its own
    row only, not every pair of the view again. Same shapes and errors as paired_difference_intervals."""
    keys = [_pair_key(a, b, resamples, seed) for b in others]
    found = cache.get_many(keys)
    missing = [i for i, key in enumerate(keys) if key not in found]
    if missing:
        computed = paired_difference_intervals(a, [others[i] for i in missing], resamples=resamples, seed=seed)
        fresh = {keys[i]: ci for i, ci in zip(missing, computed)}
        cache.set_many(fresh, CACHE_SECONDS)
        found.update(fresh)
    return [tuple(found[key]) for key in keys]
