"""Reads for runs, results and reports."""
from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from submissions.models import Submission

from .models import EvaluationRun, RunStatus, TaskResult, WorkerBeat
from core.report import build_report, entry_from_result


def run_latest(*, submission: Submission) -> EvaluationRun | None:
    """The submission's most recent run, or None."""
    return submission.runs.order_by("-created_at").first()


def known_outcome(result: TaskResult, missing: Mapping[str, str]) -> str:
    """The result's outcome, or `missing` for a task not evaluated yet that the submission lacks (`missing`: its
    `missing_reasons`, {task: why}; such a task can only end `missing`), else ""."""
    if result.outcome:
        return result.outcome
    return "missing" if result.status != TaskResult.Status.DONE and result.task.name in missing else ""


def run_progress(*, run: EvaluationRun) -> dict[str, Any]:
    """{"done": n, "total": n, "tasks": [{"task", "language", "status", "phase", "outcome", "tests_passed",
    "tests_total", "dsr", "ac", "ac_implemented", "ac_declared", "pass_at_1", "durations"}]} for the status page,
    which redraws each task's row from it while the run goes on; `outcome` is `known_outcome`: already `missing` for
    a pending task the submission has no folder for. `dsr`, `ac` and `pass_at_1` are None until the task is done
    (`ac` also when it declares no endpoint)."""
    results = list(run.results.select_related("task").order_by("task__name"))
    missing = Submission.objects.filter(pk=run.submission_id).values_list("missing_reasons", flat=True).first() or {}
    return {"done": sum(1 for r in results if r.status == TaskResult.Status.DONE), "total": len(results),
            "tasks": [_progress_row(r, missing) for r in results]}


def _progress_row(result: TaskResult, missing: Mapping[str, str]) -> dict[str, Any]:
    """One task's row of `run_progress`: its state and, once done, its numbers."""
    done = result.status == TaskResult.Status.DONE
    return {"task": result.task.name, "language": result.task.language, "status": result.status,
            "phase": result.phase, "outcome": known_outcome(result, missing),
            "tests_passed": result.tests_passed, "tests_total": result.tests_total,
            "dsr": result.dsr if done else None, "ac": result.ac if done else None,
            "ac_implemented": result.ac_implemented, "ac_declared": result.ac_declared,
            "pass_at_1": result.pass_at_1 if done else None,
            "durations": {k: result.durations.get(k) for k in ("install", "start", "test")}
            if isinstance(result.durations, dict) else {}}


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


#: How many of the latest finished task results the queue's estimate averages over.
ESTIMATE_SAMPLE = 50


def mean_task_seconds(*, sample: int = ESTIMATE_SAMPLE) -> float | None:
    """Mean wall seconds of one task's evaluation (the sum of its phase durations: install, start, probe, test)
    over the `sample` latest finished results that ran (a `missing` task took no time); None without any."""
    rows = (TaskResult.objects.filter(status=TaskResult.Status.DONE, finished_at__isnull=False)
            .exclude(durations={}).order_by("-finished_at").values_list("durations", flat=True)[:sample])
    totals = [sum(v for v in d.values() if isinstance(v, (int, float))) for d in rows]
    totals = [t for t in totals if t > 0]
    return sum(totals) / len(totals) if totals else None


def run_queue(*, run: EvaluationRun, now=None) -> dict[str, Any] | None:
    """Where a queued run stands in its own queue, or None once it has started (or ended).

    {"position": 1 + runs ahead, "ahead": queued or running runs of the same queue created before it (the teams'
    uploads, or the platform's own runs: EvaluationRun.background), "tasks_ahead": their tasks still to be evaluated
    (not done, and not missing from their submission's archive: those are scored `missing` without running),
    "mean_task_seconds": see `mean_task_seconds` (null without history), "slots": EVALUATION_TASK_CONCURRENCY,
    "background": whether the run is the platform's own, "estimated_start": now + tasks_ahead × mean / slots (ISO
    8601; null without history, and for a background run, which also waits behind reference checks)}. Runs are
    served first come, first served in their queue; work of the other queue is served by workers of its own and
    never counts. The estimate counts a running task ahead as a whole one, so it errs late.
    """
    if run.status != RunStatus.QUEUED:
        return None
    now = now or timezone.now()
    ahead = EvaluationRun.objects.filter(status__in=(RunStatus.QUEUED, RunStatus.RUNNING),
                                         background=run.background).filter(
        Q(created_at__lt=run.created_at) | Q(created_at=run.created_at, pk__lt=run.pk))
    tasks_ahead = _tasks_to_evaluate(ahead)
    mean = mean_task_seconds()
    slots = max(int(settings.EVALUATION_TASK_CONCURRENCY), 1)
    start = None
    if mean is not None and not run.background:
        start = now + timedelta(seconds=math.ceil(tasks_ahead / slots) * mean)
    return {"position": ahead.count() + 1, "ahead": ahead.count(), "tasks_ahead": tasks_ahead,
            "mean_task_seconds": round(mean, 1) if mean is not None else None, "slots": slots,
            "background": run.background, "estimated_start": start.isoformat() if start else None}


def _tasks_to_evaluate(runs) -> int:
    """How many tasks of `runs` are still to be evaluated: not done, and not lacking from their submission (a task
    in its `missing_reasons` is scored `missing` at once, without a sandbox)."""
    pending = list(TaskResult.objects.filter(run__in=runs).exclude(status=TaskResult.Status.DONE)
                   .values_list("run__submission_id", "task__name"))
    ids = {submission_id for submission_id, _ in pending}
    lacking = dict(Submission.objects.filter(pk__in=ids).exclude(missing_reasons={})
                   .values_list("pk", "missing_reasons"))
    return sum(1 for submission_id, name in pending if name not in (lacking.get(submission_id) or {}))


def evaluation_queue(*, background: bool) -> str:
    """The queue of a run's jobs: EVALUATION_BACKGROUND_QUEUE for the platform's own runs (EvaluationRun.background:
    seeds, re-scores), else the default queue, the teams'."""
    return settings.EVALUATION_BACKGROUND_QUEUE if background else settings.CELERY_TASK_DEFAULT_QUEUE


def queue_has_worker(*, background: bool = False, now=None) -> bool:
    """True when a worker consuming the queue of such runs (the default queue, or EVALUATION_BACKGROUND_QUEUE) was
    seen alive within EVALUATION_STALE_SECONDS (its `WorkerBeat`): a run waiting there waits for a busy worker,
    not for a missing one."""
    queue = evaluation_queue(background=background)
    since = (now or timezone.now()) - timedelta(seconds=settings.EVALUATION_STALE_SECONDS)
    return any(queue in (queues or []) for queues in
               WorkerBeat.objects.filter(seen_at__gte=since).values_list("queues", flat=True))
