"""Celery tasks, all of them: one run per submission (`run_prepare`), one job per task (`result_run`), the
generation of endpoint submissions (`submission_generate`), reference checks, and the recovery of work a dead
worker left (`runs_recover`, `generations_recover`, and at worker start).

They take ids, claim rows with guarded UPDATEs (a second delivery does nothing), are `acks_late`, and retry only
platform faults (SandboxError, evaluation.pipeline.result_process); a failing submission is a result, not an
exception. The work is in evaluation.pipeline and evaluation.generation; this module only sends jobs.
"""
from __future__ import annotations

import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from celery.signals import worker_init, worker_ready
from django.conf import settings
from django.db import transaction
from django.dispatch import receiver

from catalog.models import Task
from core.engine import workspace
from core.sandbox import UNSANDBOXED_WARNING, IsolationTooWeak

from submissions import webhooks

from . import generation, notifications, pipeline
from .signals import submission_ended
from .engine_setup import sandbox_backend, work_root
from .models import RunStatus

log = logging.getLogger(__name__)


@shared_task(acks_late=True, ignore_result=True)
def run_prepare(run_id: int) -> None:
    """Claim a queued run, unpack its archive, send one `result_run` per task (pipeline.run_prepare)."""
    for result_id in pipeline.run_prepare(run_id=run_id) or ():
        result_run.delay(result_id)


@shared_task(bind=True, acks_late=True, ignore_result=True, max_retries=pipeline.MAX_ATTEMPTS)
def result_run(self, result_id: int) -> None:
    """Evaluate one task of a run (pipeline.result_process); a platform fault is retried on any worker."""
    if pipeline.result_process(result_id=result_id) is pipeline.Step.RETRY:
        raise self.retry(countdown=pipeline.RETRY_DELAY_SECONDS)


def recover_work(*, stale_after: float | None = None) -> dict[str, int]:
    """Send again the runs and results a dead worker left (pipeline.stale_work); their claims make each run once.
    Returns {"runs": n, "results": n}."""
    runs, results = pipeline.stale_work(stale_after=stale_after)
    for run_id in runs:
        run_prepare.delay(run_id)
    for result_id in results:
        result_run.delay(result_id)
    return {"runs": len(runs), "results": len(results)}


@shared_task(ignore_result=True)
def runs_recover() -> None:
    """Sweep sandbox leftovers and re-enqueue what a dead worker left (`recover_work`); scheduled by beat."""
    sandbox_backend().sweep()  # containers do not die with a killed worker child; namespaces are swept too
    pipeline.cancelled_leftovers_remove()  # unpacked archives of cancelled runs
    counts = recover_work()
    if any(counts.values()):
        log.warning("recovered work left by a dead worker: %s", counts)


@shared_task(acks_late=True, ignore_result=True, soft_time_limit=4 * 3600, time_limit=4 * 3600 + 300)
def reference_check(task_id: int, runs: int = 3) -> None:
    """Check one task's reference solution `runs` times against its suite and record the outcome on the task
    (pipeline.references_check). A second delivery checks again and overwrites the record: harmless."""
    task = Task.objects.filter(pk=task_id).select_related("benchmark").first()
    if task is None:
        log.info("task %s no longer exists: nothing to check", task_id)
        return
    pipeline.references_check(tasks=[task], runs=runs)


@shared_task(acks_late=True, ignore_result=True)
def submission_generate(submission_id: int) -> None:
    """Generate the repositories of an endpoint submission (generation.generation_execute), then send its run."""
    try:
        submission = generation.generation_execute(submission_id=submission_id)
    except SoftTimeLimitExceeded:
        log.error("generation of submission %s ran out of time", submission_id)
        generation.generation_fail(submission_id=submission_id, error="The generation took longer than its time "
                                   "limit and was stopped; it does not count against your quota.")
        return
    except Exception as exc:  # a platform fault: fail visibly rather than hang in "generating"
        log.exception("generation of submission %s failed", submission_id)
        generation.generation_fail(submission_id=submission_id, error=f"The platform could not finish calling the "
                                   f"agent ({type(exc).__name__}); this does not count against your quota, "
                                   "please start the run again.")
        return
    run = submission.runs.filter(status=RunStatus.QUEUED).first() if submission else None
    if run is not None:
        run_prepare.delay_on_commit(run.pk)


@shared_task(acks_late=True, ignore_result=True)
def submission_notify(submission_id: int) -> None:
    """E-mail the team that the submission finished or failed and send its webhook event (notifications)."""
    delivery = notifications.submission_notify(submission_id=submission_id)
    if delivery is not None:
        webhook_deliver.delay(delivery.pk)


@shared_task(bind=True, acks_late=True, ignore_result=True, max_retries=None)
def webhook_deliver(self, delivery_id: int) -> None:
    """One attempt at a webhook delivery (submissions.webhooks.delivery_attempt); a failed attempt is retried
    after WEBHOOK_RETRY_BACKOFF_SECONDS, doubled at each retry, until WEBHOOK_MAX_ATTEMPTS are used."""
    if not webhooks.delivery_attempt(delivery_id=delivery_id).done:
        raise self.retry(countdown=settings.WEBHOOK_RETRY_BACKOFF_SECONDS * 2 ** self.request.retries)


@receiver(submission_ended)
def _notify_when_ended(sender, submission_id: int, **kwargs) -> None:
    """Send `submission_notify` once the transaction that ended the submission commits. A broker that cannot take
    the message loses the notification only (logged), never the ending itself."""
    def send() -> None:
        try:
            submission_notify.delay(submission_id)
        except Exception:
            log.exception("could not queue the notifications of submission %s", submission_id)

    transaction.on_commit(send)


def generation_enqueue(*, submission_id: int, task_count: int) -> None:
    """Send `submission_generate` with soft/hard time limits sized to the split (generation.time_limit)."""
    limit = generation.time_limit(task_count)
    submission_generate.apply_async((submission_id,), soft_time_limit=limit, time_limit=limit + 120)


@shared_task(ignore_result=True)
def generations_recover() -> None:
    """Re-send generations a dead worker left behind (generation.stale_generations); scheduled by beat."""
    rows = generation.stale_generations()
    for submission_id, task_count in rows:
        generation_enqueue(submission_id=submission_id, task_count=task_count)
    if rows:
        log.warning("re-sent %s generation(s) left by a dead worker", len(rows))


@worker_init.connect
def _refuse_without_sandbox(sender=None, **kwargs) -> None:
    """A worker whose sandbox is weaker than the required isolation does not start (SystemExit with the reason):
    it would only fail every task it took, or run submitted code unsandboxed (pipeline.isolation_check)."""
    try:
        pipeline.isolation_check()
    except IsolationTooWeak as exc:
        log.critical("refusing to start: %s", exc)
        raise SystemExit(f"refusing to start the worker: {exc}") from exc
    if sandbox_backend().isolation == "process":
        log.warning("%s", UNSANDBOXED_WARNING)


@worker_ready.connect
def _recover_on_start(sender=None, **kwargs) -> None:
    """A starting worker sweeps sandbox leftovers and re-enqueues abandoned runs and generations."""
    removed = sandbox_backend().sweep()
    removed += workspace.sweep(work_root(), older_than=settings.CELERY_TASK_TIME_LIMIT + 300)
    if removed:
        log.warning("removed %s sandbox leftovers (namespaces, containers) of a crashed worker", removed)
    runs_recover.delay()
    generations_recover.delay()
