"""Per-task metrics and their aggregates (docs/scoring.md "Metrics per task", "Aggregates", "Ranking",
"Report schema").
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import bootstrap
from .bootstrap import DEFAULT_RESAMPLES, DEFAULT_SEED
from .taxonomy import DEPLOYED, SCORED, Outcome


@dataclass(frozen=True)
class TaskScore:
    """The scores of one task of one submission.

    `dsr` 0/1; `ac` in [0, 1] or None (no declared endpoint); `tests_passed` P and `tests_total` N (N already the
    larger of the stored and the reported count); `pass_at_1` = P/N (0 when N = 0); `solved` = P = N > 0.
    """

    task: str
    language: str
    outcome: Outcome
    dsr: int
    ac: float | None
    tests_passed: int
    tests_total: int
    pass_at_1: float
    solved: bool

    def __post_init__(self) -> None:
        # Accept the outcome's string (as stored in reports); ValueError for an unknown one.
        object.__setattr__(self, "outcome", Outcome(self.outcome))

    def as_dict(self) -> dict[str, Any]:
        """The scalar task fields of docs/scoring.md "Report schema" (`solved` as 0/1, `outcome` as its string)."""
        return {
            "task": self.task,
            "language": self.language,
            "outcome": self.outcome.value,
            "dsr": self.dsr,
            "ac": self.ac,
            "tests_passed": self.tests_passed,
            "tests_total": self.tests_total,
            "pass_at_1": self.pass_at_1,
            "solved": int(self.solved),
        }


def pass_at_1(*, passed: int, total: int) -> float:
    """Pass@1 of one task: P / N, 0.0 when N = 0 (docs/scoring.md "Metrics per task"). The one definition: the
    engine's TaskEvaluation, `task_score` and every report entry call it."""
    return passed / total if total else 0.0


def solved(*, passed: int, total: int) -> int:
    """Solved of one task: 1 when every hidden test passed (P = N > 0), else 0 (docs/scoring.md "Metrics per
    task"). The one definition, like `pass_at_1`."""
    return int(total > 0 and passed == total)


def ac_ratio(*, implemented: int, declared: int) -> float | None:
    """AC of a task = implemented / declared endpoints; None when nothing is declared (docs/scoring.md "API Coverage").
    Raises ValueError when implemented is negative or exceeds declared."""
    if not 0 <= implemented <= declared:
        raise ValueError(f"implemented endpoints {implemented} not within 0..{declared}")
    return implemented / declared if declared else None


def task_score(
    *,
    task: str,
    language: str,
    outcome: Outcome | str,
    dsr: int | bool,
    ac: float | None,
    tests_passed: int,
    tests_total: int,
    reported_total: int = 0,
) -> TaskScore:
    """Score one task (docs/scoring.md "Metrics per task").

    `tests_total` is the N stored at import; `reported_total` the number of cases the run reported; the score's N is
    the larger. `tests_passed` P counts only cases reported passed.
    Raises ValueError for `harness_error` (never scored: the task is retried), an unknown outcome, counts that are
    negative or P > N, `ac` outside [0, 1], `dsr` not 0/1 or not matching the outcome (1 exactly for passed,
    tests_failed, tests_timeout), P > 0 without a deployed service, or `passed` without P = N > 0.
    """
    outcome = Outcome(outcome)
    if outcome is Outcome.HARNESS_ERROR:
        raise ValueError("harness_error is a platform fault and is never scored")
    n = max(tests_total, reported_total)
    if tests_passed < 0 or tests_total < 0 or reported_total < 0:
        raise ValueError("test counts must not be negative")
    if tests_passed > n:
        raise ValueError(f"tests_passed {tests_passed} exceeds tests_total {n}")
    if dsr not in (0, 1):
        raise ValueError(f"dsr must be 0 or 1, not {dsr!r}")
    if bool(dsr) != (outcome in DEPLOYED):
        raise ValueError(f"dsr={int(dsr)} contradicts outcome {outcome.value}")
    if tests_passed and not dsr:
        raise ValueError("a task whose service never came up passes no test")
    if ac is not None and not 0.0 <= ac <= 1.0:
        raise ValueError(f"ac {ac} not within [0, 1]")
    is_solved = bool(solved(passed=tests_passed, total=n))
    if outcome is Outcome.PASSED and not is_solved:
        raise ValueError(f"outcome passed with {tests_passed}/{n} tests passed")
    return TaskScore(
        task=task,
        language=language,
        outcome=outcome,
        dsr=int(dsr),
        ac=None if ac is None else float(ac),
        tests_passed=tests_passed,
        tests_total=n,
        pass_at_1=pass_at_1(passed=tests_passed, total=n),
        solved=is_solved,
    )


@dataclass(frozen=True)
class Aggregate:
    """Macro means over tasks with 95% bootstrap intervals (docs/scoring.md "Aggregates"). Fractions in [0, 1].

    `ac`/`ac_ci` are over the `ac_tasks` tasks that declare endpoints (None when there are none).
    `outcomes`: count per scored outcome, every outcome present, in taxonomy order.
    """

    tasks: int
    pass_at_1: float
    pass_at_1_ci: tuple[float, float]
    solved: float
    solved_ci: tuple[float, float]
    dsr: float
    dsr_ci: tuple[float, float]
    ac: float | None
    ac_ci: tuple[float, float] | None
    ac_tasks: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The `M` object of docs/scoring.md "Report schema", plus `solved_ci`; intervals as [lo, hi] lists."""
        return {
            "tasks": self.tasks,
            "pass_at_1": self.pass_at_1,
            "pass_at_1_ci": list(self.pass_at_1_ci),
            "solved": self.solved,
            "solved_ci": list(self.solved_ci),
            "dsr": self.dsr,
            "dsr_ci": list(self.dsr_ci),
            "ac": self.ac,
            "ac_ci": list(self.ac_ci) if self.ac_ci is not None else None,
            "outcomes": dict(self.outcomes),
        }


def aggregate(
    scores: Sequence[TaskScore], *, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED
) -> Aggregate:
    """Macro means of Pass@1, Solved and DSR over all `scores`, AC over the scores whose `ac` is not None, each with a
    95% percentile bootstrap interval over tasks (`resamples` resamples drawn by `random.Random(seed)`; the same
    resamples serve every metric, and AC is the ratio of its sums over the tasks drawn).
    Raises ValueError when `scores` is empty.
    """
    n = len(scores)
    if n == 0:
        raise ValueError("cannot aggregate zero tasks")
    pass_values = [s.pass_at_1 for s in scores]
    solved_values = [1.0 if s.solved else 0.0 for s in scores]
    dsr_values = [float(s.dsr) for s in scores]
    ac_values = [s.ac if s.ac is not None else 0.0 for s in scores]
    ac_present = [0.0 if s.ac is None else 1.0 for s in scores]
    ac_tasks = int(sum(ac_present))

    plan = bootstrap.resample_plan(n, resamples, seed)
    pass_stats, solved_stats, dsr_stats, ac_stats = [], [], [], []
    for g in plan:
        pass_stats.append(sum(g(pass_values)) / n)
        solved_stats.append(sum(g(solved_values)) / n)
        dsr_stats.append(sum(g(dsr_values)) / n)
        if ac_tasks:
            drawn = sum(g(ac_present))
            if drawn:
                ac_stats.append(sum(g(ac_values)) / drawn)

    counts = Counter(s.outcome for s in scores)
    return Aggregate(
        tasks=n,
        pass_at_1=sum(pass_values) / n,
        pass_at_1_ci=bootstrap.interval(pass_stats),
        solved=sum(solved_values) / n,
        solved_ci=bootstrap.interval(solved_stats),
        dsr=sum(dsr_values) / n,
        dsr_ci=bootstrap.interval(dsr_stats),
        ac=sum(ac_values) / ac_tasks if ac_tasks else None,
        ac_ci=bootstrap.interval(ac_stats) if ac_stats else None,
        ac_tasks=ac_tasks,
        outcomes={o.value: counts.get(o, 0) for o in SCORED},
    )


def aggregate_by_language(
    scores: Sequence[TaskScore], *, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED
) -> dict[str, Any]:
    """`{"overall": Aggregate, "by_language": {language: Aggregate}}` (languages sorted by name); overall is over all
    tasks, task-weighted (docs/scoring.md "Aggregates"). Raises ValueError when `scores` is empty."""
    languages = sorted({s.language for s in scores})
    return {
        "overall": aggregate(scores, resamples=resamples, seed=seed),
        "by_language": {
            lang: aggregate([s for s in scores if s.language == lang], resamples=resamples, seed=seed)
            for lang in languages
        },
    }


def paired_tie_with_leader(
    leader: Sequence[float],
    other: Sequence[float],
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> bool:
    """True when the 95% paired bootstrap interval of mean(leader - other) over tasks contains 0 (docs/scoring.md
    "Ranking": statistically tied with #1). Both lists hold per-task Pass@1 in the same task order.
    Raises ValueError when the lengths differ or are 0."""
    lo, hi = bootstrap.paired_difference_interval(leader, other, resamples=resamples, seed=seed)
    return lo <= 0.0 <= hi
