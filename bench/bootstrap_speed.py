"""Seconds the scoring core spends on bootstrap intervals (docs/scoring.md "Aggregates", "Ranking", "Significance
groups"), at the documented 10,000 resamples, on 30 tasks:
- one run's summary (`aggregate`: Pass@1, Solved, DSR and AC intervals), the plan drawn afresh and then cached;
- the ties with #1 of a board of N rows (`rank_rows`), all rows distinct;
- the significance groups of N rows (`significance_groups`), all rows distinct: N(N-1)/2 paired bootstraps.

Usage: .venv/bin/python bench/bootstrap_speed.py [--rows 10 100 300]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.grading import bootstrap  # noqa: E402
from core.grading.metrics import aggregate, task_score  # noqa: E402
from core.grading.ranking import RankInput, rank_rows, significance_groups  # noqa: E402

TASKS = 30


def _timed(label: str, call) -> None:
    started = time.perf_counter()
    call()
    print(f"{label:<52} {time.perf_counter() - started:8.3f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[10, 100, 300])
    args = parser.parse_args()
    rng = random.Random(1)
    scores = [task_score(task=f"t{k}", language="python" if k < 22 else "java", tests_passed=k % 4, tests_total=4,
                         outcome="tests_failed", dsr=1, ac=0.5)
              for k in range(TASKS)]
    bootstrap.resample_plan.cache_clear()
    bootstrap.plan_matrix.cache_clear()
    _timed("one summary, plan drawn afresh", lambda: aggregate(scores))
    _timed("one summary, plan cached", lambda: aggregate(scores))
    for n in args.rows:
        rows = [[rng.randint(0, 15) / 15 for _ in range(TASKS)] for _ in range(n)]
        inputs = [RankInput(key=i, pass_at_1=sum(r) / TASKS, ac=None, dsr=1.0,
                            submitted_at=datetime(2026, 1, 1, tzinfo=timezone.utc), per_task_pass=r)
                  for i, r in enumerate(rows)]
        _timed(f"ties with #1, {n} distinct rows", lambda: rank_rows(inputs))
        _timed(f"significance groups, {n} distinct rows ({n * (n - 1) // 2} pairs)",
               lambda: significance_groups(rows))


if __name__ == "__main__":
    main()
