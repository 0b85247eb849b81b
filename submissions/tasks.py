"""Celery tasks of endpoint submissions: `submission_generate` calls the agent for every task of the split.

Like the evaluation tasks they take ids, claim rows with a guarded UPDATE (a second delivery, or one
while another worker's heartbeat is fresh, does nothing), are `acks_late`, and turn the agent's failures
into per-task results. A fault of the platform fails the submission with a message; it never crashes
the worker.
"""
from __future__ import annotations

import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from celery.signals import worker_ready

log = logging.getLogger(__name__)


@shared_task(acks_late=True, ignore_result=True)
def submission_generate(submission_id: int) -> None:
    """Generate the repositories of an endpoint submission, then queue its evaluation (see
    submissions.agents.services.generation_execute)."""
    from .agents import services

    try:
        services.generation_execute(submission_id=submission_id)
    except SoftTimeLimitExceeded:
        log.error("generation of submission %s ran out of time", submission_id)
        services.generation_fail(submission_id=submission_id, error="The generation took longer than its time "
                                 "limit and was stopped; it does not count against your quota.")
    except Exception as exc:  # a platform fault: fail visibly rather than hang in "generating"
        log.exception("generation of submission %s failed", submission_id)
        services.generation_fail(submission_id=submission_id, error=f"The platform could not finish calling the "
                                 f"agent ({type(exc).__name__}); this does not count against your quota, "
                                 "please start the run again.")


@shared_task(ignore_result=True)
def generations_recover() -> None:
    """Re-send generations a dead worker left behind (scheduled by beat, and at worker start)."""
    from .agents.services import generations_recover as recover

    count = recover()
    if count:
        log.warning("re-sent %s generation(s) left by a dead worker", count)


@worker_ready.connect
def _recover_on_start(sender=None, **kwargs) -> None:
    generations_recover.delay()
