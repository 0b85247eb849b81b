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

    pass_ci, solved_ci, dsr_ci = bootstrap.mean_intervals([pass_values, solved_values, dsr_values],
                                                          resamples=resamples, seed=seed)
    ac_stats = []
    if ac_tasks:  # a ratio of sums over the tasks drawn: AC's own statistic, on the same plan
        for g in bootstrap.resample_plan(n, resamples, seed):
            drawn = sum(g(ac_present))
            if drawn:
                ac_stats.append(sum(g(ac_values)) / drawn)

    counts = Counter(s.outcome for s in scores)
    return Aggregate(
        tasks=n,
        pass_at_1=sum(pass_values) / n,
        pass_at_1_ci=pass_ci,
        solved=sum(solved_values) / n,
        solved_ci=solved_ci,
        dsr=sum(dsr_values) / n,
        dsr_ci=dsr_ci,
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


def contains_zero(ci: tuple[float, float]) -> bool:
    """True when the interval (lo, hi) contains 0: the one rule behind "statistically tied with #1", significance
    groups and a comparison's `significant` (docs/scoring.md "Ranking", "Significance groups", "Comparing two
    systems")."""
    lo, hi = ci
    return lo <= 0.0 <= hi


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
    return contains_zero(bootstrap.paired_difference_interval(leader, other, resamples=resamples, seed=seed))


@dataclass(frozen=True)
class PairedComparison:
    """Two systems compared task by task on Pass@1 (docs/scoring.md "Comparing two systems").

    `tasks`: tasks paired (the same tasks, in the same order, for both); `mean_a`/`mean_b`: their mean Pass@1;
    `difference` = mean_a - mean_b and `difference_ci` its 95% paired bootstrap interval (tasks resampled jointly),
    all fractions in [-1, 1]; `wins`/`ties`/`losses`: tasks where A's Pass@1 is above, equal to or below B's;
    `significant`: the interval does not contain 0.
    """

    tasks: int
    mean_a: float
    mean_b: float
    difference: float
    difference_ci: tuple[float, float]
    wins: int
    ties: int
    losses: int

    @property
    def significant(self) -> bool:
        """True when the 95% paired interval leaves out 0 (the two systems differ on these tasks)."""
        return not contains_zero(self.difference_ci)

    def as_dict(self) -> dict[str, Any]:
        """JSON shape: the fields above, `difference_ci` as [lo, hi], plus `significant`."""
        return {"tasks": self.tasks, "mean_a": self.mean_a, "mean_b": self.mean_b, "difference": self.difference,
                "difference_ci": list(self.difference_ci), "significant": self.significant,
                "wins": self.wins, "ties": self.ties, "losses": self.losses}


def paired_comparison(
    a: Sequence[float], b: Sequence[float], *, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED
) -> PairedComparison:
    """Compare per-task Pass@1 lists `a` and `b` (same tasks, same order: the split's scored tasks by name) as
    docs/scoring.md "Comparing two systems" states: the mean difference, its 95% paired bootstrap interval
    (`bootstrap.paired_difference_interval`, the same seeded resamples as the "≈#1" marker of "Ranking", so
    comparing a row with the leader agrees with its marker) and wins / ties / losses on values rounded to 4 decimals.
    Raises ValueError when the lengths differ or are 0."""
    lo, hi = bootstrap.paired_difference_interval(a, b, resamples=resamples, seed=seed)
    n = len(a)
    signs = [(round(x, 4) > round(y, 4)) - (round(x, 4) < round(y, 4)) for x, y in zip(a, b)]
    return PairedComparison(tasks=n, mean_a=sum(a) / n, mean_b=sum(b) / n, difference=(sum(a) - sum(b)) / n,
                            difference_ci=(lo, hi), wins=signs.count(1), ties=signs.count(0),
                            losses=signs.count(-1))


#: A task solved by at least this share of the scored systems is `saturated` (docs/scoring.md "Task difficulty and
#: discrimination").
SATURATED_SHARE = 0.9

#: A task gets a label only once at least this many systems are scored on it: with fewer, one system solving it
#: made it "saturated" (docs/scoring.md "Task difficulty and discrimination").
MIN_LABELLED_SYSTEMS = 3


@dataclass(frozen=True)
class TaskDifficulty:
    """How one task separates the systems scored on it (docs/scoring.md "Task difficulty and discrimination").

    `systems`: systems scored on it; `solved_share`: the share of them with P = N; `mean_pass_at_1` and `spread`
    (population standard deviation of their Pass@1, in [0, 0.5]); all None when no system is scored. `label`:
    `saturated`, `never solved`, `discriminating`, or None (fewer than MIN_LABELLED_SYSTEMS systems scored)."""

    systems: int
    solved_share: float | None
    mean_pass_at_1: float | None
    spread: float | None
    label: str | None

    def as_dict(self) -> dict[str, Any]:
        """The fields above as a dict."""
        return {"systems": self.systems, "solved_share": self.solved_share, "mean_pass_at_1": self.mean_pass_at_1,
                "spread": self.spread, "label": self.label}


def task_difficulty(*, pass_values: Sequence[float], solved_values: Sequence[bool | int]) -> TaskDifficulty:
    """Difficulty of one task from the Pass@1 and Solved (0/1) of each scored system, in the same order.

    The rule of docs/scoring.md "Task difficulty and discrimination": `never solved` when no system solves it,
    `saturated` when at least SATURATED_SHARE (90%) of the systems solve it, else `discriminating` (some systems
    solve it, most do not all); no label while fewer than MIN_LABELLED_SYSTEMS (3) systems are scored on it (the
    share, mean and spread are still given). No system: every value None. Raises ValueError when the lengths
    differ."""
    if len(pass_values) != len(solved_values):
        raise ValueError(f"{len(pass_values)} Pass@1 values but {len(solved_values)} Solved values")
    k = len(pass_values)
    if k == 0:
        return TaskDifficulty(systems=0, solved_share=None, mean_pass_at_1=None, spread=None, label=None)
    share = sum(1 for s in solved_values if s) / k
    mean = sum(pass_values) / k
    spread = (sum((v - mean) ** 2 for v in pass_values) / k) ** 0.5
    if k < MIN_LABELLED_SYSTEMS:
        label = None
    else:
        label = "never solved" if share == 0 else "saturated" if share >= SATURATED_SHARE else "discriminating"
    return TaskDifficulty(systems=k, solved_share=share, mean_pass_at_1=mean, spread=spread, label=label)
