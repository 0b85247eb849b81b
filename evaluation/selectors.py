"""Reads for runs, results and reports."""
from __future__ import annotations

from typing import Any

from submissions.models import Submission

from .models import EvaluationRun, RunStatus, TaskResult
from core.report import build_report, entry_from_result


def run_latest(*, submission: Submission) -> EvaluationRun | None:
    """The submission's most recent run, or None."""
    return submission.runs.order_by("-created_at").first()


def run_progress(*, run: EvaluationRun) -> dict[str, Any]:
    """{"done": n, "total": n, "tasks": [{"task", "status", "phase", "outcome"}]} for the status page."""
    results = list(run.results.select_related("task").order_by("task__name"))
    return {"done": sum(1 for r in results if r.status == TaskResult.Status.DONE), "total": len(results),
            "tasks": [{"task": r.task.name, "language": r.task.language, "status": r.status, "phase": r.phase,
                       "outcome": r.outcome} for r in results]}


def run_report(*, run: EvaluationRun) -> dict[str, Any]:
    """The report of a finished run (docs/scoring.md "Report schema"). Raises ValueError when the run is not
    finished."""
    if run.status != RunStatus.FINISHED:
        raise ValueError("the evaluation has not finished: no report yet")
    s = run.submission
    tasks = [entry_from_result(r) for r in run.results.select_related("task")]
    return build_report(
        benchmark={"name": run.benchmark.name, "version": run.benchmark.version, "split": (run.split or s.split).name},
        evaluator={"version": run.evaluator_version, "backend": run.backend, "isolation": run.isolation,
                   "environment": run.environment},
        submission={"id": s.pk, "system": s.system.name, "created_at": s.created_at.isoformat(),
                    "finished_at": run.finished_at.isoformat() if run.finished_at else None},
        tasks=tasks, summary=run.summary,
    )


def submission_report(*, submission: Submission) -> dict[str, Any]:
    """The report of the submission's finished evaluation. Raises ValueError (with the status) otherwise."""
    run = run_latest(submission=submission)
    if run is None or submission.status != Submission.Status.FINISHED:
        raise ValueError(f"submission {submission.pk} has no finished evaluation yet (status: {submission.status})")
    return run_report(run=run)
