"""Two systems compared task by task on one split (docs/scoring.md "Comparing two systems"): the read behind
/compare/ and /api/v1/compare/."""
from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

from catalog.models import Split, System
from catalog.selectors import NotFound, split_tasks, system_by_ref
from core.grading.metrics import paired_comparison
from evaluation.models import EvaluationRun
from leaderboard.selectors import LANGUAGE_VIEWS, latest_runs

#: How many tasks "where they differ most" lists.
LARGEST = 5


def comparable_systems(*, split: Split) -> list[System]:
    """The systems with a finished public run on the split (reference systems included), by name: what
    /compare/ offers to pick from."""
    return sorted((run.submission.system for run in latest_runs(split=split)), key=lambda s: s.name.lower())


def _system_of(ref: str) -> System:
    """The system `ref` names: its id (ASCII digits) or its exact name (catalog.selectors.system_by_ref), else the
    one system whose name equals it ignoring letter case (`demo agent alpha` for `Demo Agent Alpha`). Raises
    NotFound when none matches, or when several match ignoring case (the message lists them)."""
    system = system_by_ref(ref)
    if system is not None:
        return system
    if ref.isascii() and ref.isdigit():
        raise NotFound(f"no system with id {ref}")
    wanted = ref.casefold()
    matches = [pk for pk, name in System.objects.values_list("pk", "name") if name.casefold() == wanted]
    if len(matches) == 1:
        return System.objects.select_related("team").get(pk=matches[0])
    if matches:
        names = sorted(System.objects.filter(pk__in=matches).values_list("name", flat=True))
        raise NotFound(f"no system named {ref!r}; {len(names)} differ from it only in letter case "
                       f"({', '.join(repr(n) for n in names)}): give the exact name or the id")
    raise NotFound(f"no system named {ref!r}")


def _run_of(split: Split, system: System, runs: dict[int, EvaluationRun]) -> EvaluationRun:
    if system.pk in runs:
        return runs[system.pk]
    raise NotFound(f"system {system.name!r} has no finished public evaluation on {split.benchmark.name}/{split.name}")


def _side(run: EvaluationRun, language: str) -> dict[str, Any]:
    system = run.submission.system
    return {"system": system.name, "system_id": system.pk, "team": system.team.name, "type": system.type,
            "submission": run.submission_id, "benchmark_version": run.benchmark.version,
            "evaluator_version": run.evaluator_version, "outdated": run.is_outdated,
            "metrics": run.scores.metrics(language) if run.scores else None}


def _cell(result, submission_id: int) -> dict[str, Any]:
    if result is None:
        return {"outcome": None, "tests_passed": 0, "tests_total": None, "pass_at_1": 0.0, "dsr": 0, "solved": 0,
                "submission": submission_id}
    return {"outcome": result.outcome, "tests_passed": result.tests_passed, "tests_total": result.tests_total,
            "pass_at_1": result.pass_at_1, "dsr": result.dsr, "solved": result.solved, "submission": submission_id}


def system_compare(*, split: Split, a: str, b: str, language: str = "overall") -> dict[str, Any]:
    """Systems `a` and `b` (each by id, ASCII digits, or by exact name: catalog.selectors.system_by_ref) compared on their latest finished public runs on `split`, over the
    tasks of one language view (`overall`, `python`, `java`).

    Returns {"benchmark", "version", "split", "language", "a": side, "b": side, "comparison":
    PairedComparison.as_dict() or None (no scored task), "tasks": [{"task", "language", "excluded", "a": cell,
    "b": cell, "difference": Pass@1 of A minus B (None for an excluded task), "winner": "a" | "b" | "tie" | None}],
    "largest_differences": [up to 5 task names, largest |difference| first, ties left out]}.
    side = {"system", "system_id", "team", "type", "submission", "benchmark_version", "evaluator_version",
    "outdated", "metrics": M of the view or None}; cell = {"outcome" (None: no result), "tests_passed",
    "tests_total", "pass_at_1", "dsr", "solved", "submission"}. Fractions in [0, 1] (differences in [-1, 1]).
    A task without a result scores 0, as on the board; tasks with N = 0 are listed but not paired.
    Raises NotFound for an unknown view, an unknown system or one without a run on the split, and
    ValidationError when `a` and `b` are the same system (by name, by id, or one of each).
    """
    if language not in LANGUAGE_VIEWS:
        raise NotFound(f"unknown language {language!r}: use one of {', '.join(LANGUAGE_VIEWS)}")
    if a == b:
        raise ValidationError("pick two different systems to compare")
    system_a, system_b = _system_of(a), _system_of(b)
    if system_a.pk == system_b.pk:
        raise ValidationError(f"{a!r} and {b!r} are the same system ({system_a.name}): pick two different systems "
                              "to compare")
    runs = {run.submission.system_id: run for run in latest_runs(split=split)}
    run_a, run_b = _run_of(split, system_a, runs), _run_of(split, system_b, runs)
    results_a = {r.task.name: r for r in run_a.results.all()}
    results_b = {r.task.name: r for r in run_b.results.all()}
    rows, paired_a, paired_b = [], [], []
    for task in split_tasks(split=split, language=language):
        cell_a = _cell(results_a.get(task.name), run_a.submission_id)
        cell_b = _cell(results_b.get(task.name), run_b.submission_id)
        excluded = task.is_excluded
        difference = None if excluded else cell_a["pass_at_1"] - cell_b["pass_at_1"]
        if not excluded:
            paired_a.append(cell_a["pass_at_1"])
            paired_b.append(cell_b["pass_at_1"])
        winner = None if difference is None else ("tie" if round(difference, 4) == 0 else
                                                  "a" if difference > 0 else "b")
        rows.append({"task": task.name, "language": task.language, "excluded": excluded, "a": cell_a,
                     "b": cell_b, "difference": difference, "winner": winner})
    comparison = paired_comparison(paired_a, paired_b).as_dict() if paired_a else None
    differing = sorted((r for r in rows if r["winner"] in ("a", "b")), key=lambda r: (-abs(r["difference"]),
                                                                                      r["task"]))
    return {"benchmark": split.benchmark.name, "version": split.benchmark.version, "split": split.name,
            "language": language, "a": _side(run_a, language), "b": _side(run_b, language),
            "comparison": comparison, "tasks": rows,
            "largest_differences": [r["task"] for r in differing[:LARGEST]]}
