"""Celery tasks: one run per submission (`run_prepare`), one job per task (`result_run`).

They take ids, claim rows with guarded UPDATEs (a second delivery does nothing), are `acks_late`,
and retry only platform faults (SandboxError); a failing submission is a result, not an exception.
"""
from __future__ import annotations

import logging

from celery import shared_task
from celery.signals import worker_ready

from core.sandbox import SandboxError

from . import services

log = logging.getLogger(__name__)


@shared_task(acks_late=True, ignore_result=True)
def run_prepare(run_id: int) -> None:
    """Claim a queued run, unpack its archive, enqueue one `result_run` per task."""
    run = services.run_claim(run_id=run_id)
    if run is None:
        log.info("run %s already claimed: nothing to do", run_id)
        return
    try:
        result_ids = services.run_extract(run=run)
    except Exception as exc:  # a platform fault while unpacking: fail visibly rather than hang in "extract"
        log.exception("run %s could not be prepared", run_id)
        services.run_fail(run=run, error=f"the platform could not unpack this submission ({type(exc).__name__}); "
                                         "it does not count against your quota, please resubmit")
        return
    for result_id in result_ids:
        result_run.delay(result_id)
    if not result_ids:
        services.run_finalize_if_done(run_id=run_id)


@shared_task(bind=True, acks_late=True, ignore_result=True, max_retries=services.MAX_ATTEMPTS)
def result_run(self, result_id: int) -> None:
    """Evaluate one task of a run, then finish the run if it was the last one."""
    result = services.result_claim(result_id=result_id)
    if result is None:
        log.info("result %s already claimed or done: nothing to do", result_id)
        return
    try:
        services.result_evaluate(result=result)
    except SandboxError as exc:
        log.exception("platform fault on result %s", result_id)
        if services.result_release_after_fault(result_id=result_id, error=str(exc)):
            raise self.retry(exc=exc, countdown=5)
    services.run_finalize_if_done(run_id=result.run_id)


@shared_task(ignore_result=True)
def runs_recover() -> None:
    """Re-enqueue what a dead worker left (see services.runs_recover); scheduled every minute."""
    from .engine_setup import sandbox_backend

    sandbox_backend().sweep()  # containers do not die with a killed worker child; namespaces are swept too
    counts = services.runs_recover()
    if any(counts.values()):
        log.warning("recovered work left by a dead worker: %s", counts)


@worker_ready.connect
def _recover_on_start(sender=None, **kwargs) -> None:
    """A starting worker sweeps sandbox leftovers and re-enqueues abandoned work."""
    from .engine_setup import sandbox_backend

    from django.conf import settings

    from core.engine import workspace
    from .engine_setup import work_root

    removed = sandbox_backend().sweep()
    removed += workspace.sweep(work_root(), older_than=settings.CELERY_TASK_TIME_LIMIT + 300)
    if removed:
        log.warning("removed %s sandbox leftovers (namespaces, containers) of a crashed worker", removed)
    runs_recover.delay()


@shared_task(acks_late=True, ignore_result=True, soft_time_limit=4 * 3600, time_limit=4 * 3600 + 300)
def reference_check(task_id: int, runs: int = 3) -> None:
    """Check one task's reference solution `runs` times against its suite and record the outcome on the task
    (services.references_check). A second delivery checks again and overwrites the record: harmless."""
    from catalog.models import Task

    task = Task.objects.filter(pk=task_id).select_related("benchmark").first()
    if task is None:
        log.info("task %s no longer exists: nothing to check", task_id)
        return
    services.references_check(tasks=[task], runs=runs)
