"""Celery tasks, all of them: one run per submission (`run_prepare`), one job per task (`result_run`), the
generation of endpoint submissions (`submission_generate`), reference checks, and the recovery of work a dead
worker left (`runs_recover`, `generations_recover`, and at worker start).

They take ids, claim rows with guarded UPDATEs (a second delivery does nothing), are `acks_late`, and retry only
platform faults (SandboxError, evaluation.pipeline.result_process); a failing submission is a result, not an
exception. The work is in evaluation.pipeline and evaluation.generation; this module only sends jobs.

Queues (config/settings.py, CELERY_TASK_ROUTES): the teams' work goes to the default queue; the platform's own
(reference checks, the runs of seeds and re-scores, the recovery sweeps) to EVALUATION_BACKGROUND_QUEUE, so a
worker of the default queue never has an upload wait behind it. Every worker records itself alive (`WorkerBeat`).
"""
from __future__ import annotations

import logging
import threading

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from celery.signals import worker_init, worker_ready, worker_shutting_down
from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.dispatch import receiver
from django.utils import timezone
from kombu.exceptions import ChannelError

from catalog.models import Task
from core.engine import workspace
from core.sandbox import UNSANDBOXED_WARNING, IsolationTooWeak

from submissions import webhooks

from . import generation, notifications, pipeline
from .signals import submission_ended
from .engine_setup import sandbox_backend, work_root
from .models import EvaluationRun, RunStatus, TaskResult, WorkerBeat
from .selectors import evaluation_queue

log = logging.getLogger(__name__)


def queue_waiting(queue: str) -> int:
    """How many messages wait in `queue` on the broker, not yet taken by a worker (kombu's queue_declare: the
    Redis list's length, the filesystem transport's message files; Redis deletes an empty list: 0)."""
    with run_prepare.app.connection_for_read() as conn:
        try:
            return conn.default_channel.queue_declare(queue=queue, passive=True).message_count
        except ChannelError:
            return 0


def run_send(*, run_id: int, background: bool, on_commit: bool = False) -> None:
    """Send `run_prepare` for the run to its queue (`evaluation_queue`), now or once the transaction commits."""
    send = run_prepare.apply_async_on_commit if on_commit else run_prepare.apply_async
    send((run_id,), queue=evaluation_queue(background=background))


@shared_task(acks_late=True, ignore_result=True)
def run_prepare(run_id: int) -> None:
    """Claim a queued run, unpack its archive, send one `result_run` per task (pipeline.run_prepare) to the run's
    queue."""
    result_ids = pipeline.run_prepare(run_id=run_id) or ()
    if result_ids:
        queue = evaluation_queue(background=EvaluationRun.objects.filter(pk=run_id).values_list(
            "background", flat=True).first() or False)
        for result_id in result_ids:
            result_run.apply_async((result_id,), queue=queue)


@shared_task(bind=True, acks_late=True, ignore_result=True, max_retries=pipeline.MAX_ATTEMPTS)
def result_run(self, result_id: int) -> None:
    """Evaluate one task of a run (pipeline.result_process); a platform fault is retried on any worker."""
    if pipeline.result_process(result_id=result_id) is pipeline.Step.RETRY:
        raise self.retry(countdown=pipeline.RETRY_DELAY_SECONDS)


def recover_work(*, stale_after: float | None = None) -> dict[str, int]:
    """Send again the runs and results a dead worker left or the broker lost (pipeline.stale_work), each to its
    run's queue; their claims make each run once. A run or result that only waits (queued, pending) is sent again
    only when its queue holds no message at all (`queue_waiting`): while messages wait there its own may be one of
    them, and another copy would only be a duplicate. Returns {"runs": n, "results": n}."""
    empty: dict[bool, bool] = {}

    def lost(background: bool) -> bool:
        if background not in empty:
            empty[background] = queue_waiting(evaluation_queue(background=background)) == 0
        return empty[background]

    runs, results = pipeline.stale_work(stale_after=stale_after, waiting_lost=lost)
    background = dict(EvaluationRun.objects.filter(pk__in=runs).values_list("pk", "background"))
    for run_id in runs:
        run_send(run_id=run_id, background=background.get(run_id, False))
    background = dict(TaskResult.objects.filter(pk__in=results).values_list("pk", "run__background"))
    for result_id in results:
        result_run.apply_async((result_id,), queue=evaluation_queue(background=background.get(result_id, False)))
    return {"runs": len(runs), "results": len(results)}


@shared_task(ignore_result=True)
def runs_recover() -> None:
    """Sweep sandbox leftovers and re-enqueue what a dead worker left (`recover_work`); scheduled by beat."""
    sandbox_backend().sweep()  # containers do not die with a killed worker child; namespaces are swept too
    pipeline.cancelled_leftovers_remove()  # unpacked archives of cancelled runs
    counts = recover_work()
    if any(counts.values()):
        log.warning("recovered work left by a dead worker: %s", counts)


@shared_task(acks_late=True, ignore_result=True)
def reference_check(task_id: int, runs: int = 3, done: list[dict] | None = None) -> None:
    """One run of a task's reference check (background queue): evaluate the reference once against its suite
    (pipeline.reference_check_step), then send the next run to the back of the queue with the runs `done` so far,
    or, after `runs` of them, record the outcome on the task. One evaluation per job, so a check holds a worker slot
    no longer than one task's evaluation. A second delivery checks that run again: harmless."""
    task = Task.objects.filter(pk=task_id).select_related("benchmark").first()
    if task is None:
        log.info("task %s no longer exists: nothing to check", task_id)
        return
    done = pipeline.reference_check_step(task=task, runs=runs, done=done or [])
    if done is not None:
        reference_check.delay(task_id, runs, done)


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
        run_send(run_id=run.pk, background=run.background, on_commit=True)


@shared_task(acks_late=True, ignore_result=True)
def submission_notify(submission_id: int) -> None:
    """E-mail the team that the submission finished or failed and send its webhook event (notifications)."""
    delivery = notifications.submission_notify(submission_id=submission_id)
    if delivery is not None:
        webhook_deliver.delay(delivery.pk)


@shared_task(bind=True, acks_late=True, ignore_result=True, max_retries=None)
def webhook_deliver(self, delivery_id: int) -> None:
    """One attempt at a webhook delivery (submissions.webhooks.delivery_attempt, at most WEBHOOK_TIMEOUT_SECONDS of
    wall-clock time); a failed attempt is retried after WEBHOOK_RETRY_BACKOFF_SECONDS, doubled at each retry, until
    WEBHOOK_MAX_ATTEMPTS are used. Routed to the background queue (CELERY_TASK_ROUTES), retries included: a team's
    receiver never holds a slot that evaluates submissions."""
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
    """Re-send generations a dead worker left behind or the broker lost (generation.stale_generations); one that
    never started is sent again only when the default queue holds no message (see `recover_work`). Scheduled by
    beat."""
    rows = generation.stale_generations(
        waiting_lost=lambda: queue_waiting(evaluation_queue(background=False)) == 0)
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


def sandbox_leftovers_remove() -> int:
    """Remove what sandboxes of workers that are gone left behind: network namespaces, cgroups and containers
    (the backend's `sweep`) and task folders with their tmpfs and Maven overlay mounts (`workspace.sweep`, under
    this site's EVALUATION_WORK_ROOT). A live worker's are spared (each records its owner). Run by a starting
    worker and by scripts/worker.sh once its workers have stopped (`manage.py sandbox_sweep`). Returns how many
    were removed."""
    removed = sandbox_backend().sweep()
    return removed + workspace.sweep(work_root(), older_than=settings.CELERY_TASK_TIME_LIMIT + 300)


@worker_ready.connect
def _recover_on_start(sender=None, **kwargs) -> None:
    """A starting worker sweeps sandbox leftovers and re-enqueues abandoned runs and generations."""
    removed = sandbox_leftovers_remove()
    if removed:
        log.warning("removed %s sandbox leftovers (namespaces, containers, task folders) of a stopped worker",
                    removed)
    runs_recover.delay()
    generations_recover.delay()
    _worker_beat.start(sender)


class _WorkerBeatThread:
    """Writes this worker's `WorkerBeat` row (hostname, the queues it consumes, its concurrency) at start and then
    every `worker_beat_seconds()` from a thread of the worker's main process, with a connection of its own; deletes
    the row when the worker begins to stop (warm or cold shutdown)."""

    def __init__(self) -> None:
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, consumer) -> None:
        hostname = consumer.hostname
        queues = sorted(consumer.app.amqp.queues.consume_from)
        concurrency = getattr(getattr(consumer, "controller", None), "concurrency", None) or 0
        started = timezone.now()

        def beat() -> None:
            try:
                while True:
                    try:
                        WorkerBeat.objects.update_or_create(hostname=hostname, defaults={
                            "queues": queues, "concurrency": concurrency, "started_at": started,
                            "seen_at": timezone.now()})
                    except DatabaseError as exc:
                        log.warning("could not record this worker alive (%s); trying again", exc)
                    if self._stop.wait(worker_beat_seconds()):
                        break
                WorkerBeat.objects.filter(hostname=hostname).delete()
            except DatabaseError:
                pass  # the row goes stale within EVALUATION_STALE_SECONDS anyway
            finally:
                connection.close()

        self._thread = threading.Thread(target=beat, name="worker-beat", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=3)


def worker_beat_seconds() -> float:
    """How often a worker records itself alive: a quarter of EVALUATION_STALE_SECONDS, after which it counts as
    gone (evaluation.selectors.queue_has_worker)."""
    return max(settings.EVALUATION_STALE_SECONDS / 4, 1.0)


_worker_beat = _WorkerBeatThread()


@worker_shutting_down.connect
def _worker_gone(sender=None, **kwargs) -> None:
    """The worker begins its warm or cold shutdown (Ctrl-C, TERM, QUIT): it no longer counts as alive."""
    _worker_beat.stop()
