"""The evaluation pipeline of one run: open, claim, unpack, evaluate each task, store, release, finish.

Celery tasks (evaluation.tasks), in-process runs (`run_execute_inline`) and offline folders (`folder_evaluate`)
all go through `result_process` / `repo_evaluate_with_retries`: the same claim, the same evaluation, the same
retry of platform faults. Nothing here enqueues a job: the Celery tasks do the fan-out.

Idempotence: a run or result is *claimed* with a guarded UPDATE on its status, so a message delivered twice
finds nothing to claim (docs/architecture.md "Conventions"). This module is the one writer of `Submission.status` once a
submission's archive exists (`submission_status_set`); the pages derive what they show from it and the runs.
"""
from __future__ import annotations

import enum
import fcntl
import logging
import shutil
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models import F, Q
from django.utils import timezone

from catalog.models import ReferenceStatus, Split, Task
from catalog.bundles import task_bundles_ensure, task_reference_dir
from catalog.services import task_set_reference_status
from catalog.signals import board_changed
from core.engine import EVALUATOR_VERSION
from core.engine.archive import ArchiveError, extract_archive
from core.engine.runner import evaluate_task
from core.engine.spec import TaskEvaluation
from core.engine.team_view import without_host_paths
from core.grading.taxonomy import Outcome
from core.report import entry_from_result, evaluation_fields, summarize
from core.sandbox import IsolationTooWeak, SandboxError, isolation_at_least
from submissions.models import GenerationCall, Submission
from submissions.services import archive_limits, submission_archive_fetch

from .cancellation import CancellableBackend, CancelWatch, RunCancelled
from .engine_setup import environment_stamp, sandbox_backend, task_spec, toolchain, work_root
from .models import EvaluationRun, ResultPhase, RunPhase, RunStatus, TaskResult
from .signals import submission_ended



log = logging.getLogger(__name__)


MAX_ATTEMPTS = 3


#: A running result refreshes its heartbeat this often (seconds); one silent for
#: EVALUATION_STALE_SECONDS (default 60) lost its worker.
HEARTBEAT_SECONDS = 5
#: A running result looks this often (seconds) whether its run was cancelled; then its sandbox is torn down.
CANCEL_POLL_SECONDS = 1.0
#: The error of a run the platform could not unpack (its submission fails; failed ones do not count in the quota).
UNPACK_FAILED = ("the platform could not unpack this submission ({reason}); it does not count against your quota, "
                 "please resubmit")
#: A result released after a platform fault is tried again after this many seconds (Celery countdown and in-process
#: runs alike), at most MAX_ATTEMPTS times in all.
RETRY_DELAY_SECONDS = 5


class Step(enum.Enum):
    """What `result_process` did with one result."""

    DONE = "done"  # stored (as harness_error when its attempts were used up); the run finished if it was the last
    RETRY = "retry"  # a platform fault: the result is pending again, try it again after RETRY_DELAY_SECONDS
    TAKEN = "taken"  # nothing to claim: another delivery holds it, or it is done


def stale_cutoff(stale_after: float | None = None) -> datetime:
    """The moment before which a heartbeat is stale: now minus `stale_after` seconds (default
    EVALUATION_STALE_SECONDS). The one cutoff of results, runs and generations alike."""
    return timezone.now() - timedelta(seconds=settings.EVALUATION_STALE_SECONDS if stale_after is None else stale_after)


def submission_status_set(*, submission_id: int, status: str, only_from: tuple[str, ...] = (), **fields) -> bool:
    """Set a submission's status (and `fields`, e.g. error, finished_at): the one writer of `Submission.status`.
    With `only_from` the change happens only from those statuses (a guarded UPDATE). True when a row changed.
    Reaching `finished` or `failed` sends signals.submission_ended (the team's notifications)."""
    rows = Submission.objects.filter(pk=submission_id)
    if only_from:
        rows = rows.filter(status__in=only_from)
    changed = bool(rows.update(status=status, **fields))
    if changed and status in (Submission.Status.FINISHED, Submission.Status.FAILED):
        submission_ended.send(sender=Submission, submission_id=submission_id, status=status)
    return changed


def run_open(*, submission: Submission, split: Split | None = None, background: bool = False) -> EvaluationRun:
    """Create a queued run with one pending result per task of `split` (default: the submission's split) and put
    the submission back in the queue; `background` for the platform's own runs (seeds, re-scores), evaluated on the
    background queue. Sends nothing: `evaluation.services.run_create` enqueues it."""
    split = split or submission.split
    task_bundles_ensure(tasks=split.tasks.filter(bundle_sha256="").select_related("benchmark"))  # older imports
    run = EvaluationRun.objects.create(submission=submission, benchmark=split.benchmark, split=split,
                                       background=background)
    TaskResult.objects.bulk_create(
        TaskResult(run=run, task=t, tests_total=t.tests_total, ac_declared=len(t.declared_endpoints))
        for t in split.tasks.order_by("name")
    )
    submission_status_set(submission_id=submission.pk, status=Submission.Status.QUEUED, finished_at=None, error="",
                          notified_at=None)
    return run


def run_claim(*, run_id: int) -> EvaluationRun | None:
    """Move a queued run to running (once); None when another delivery already claimed it."""
    claimed = EvaluationRun.objects.filter(pk=run_id, status=RunStatus.QUEUED).update(
        status=RunStatus.RUNNING, phase=RunPhase.EXTRACT, started_at=timezone.now(), heartbeat=timezone.now(),
        attempts=F("attempts") + 1,
    )
    if not claimed:
        return None
    run = EvaluationRun.objects.select_related("submission__split").get(pk=run_id)
    submission_status_set(submission_id=run.submission_id, status=Submission.Status.RUNNING,
                          only_from=(Submission.Status.QUEUED,))  # never over a cancel
    return run


def _runs_root() -> Path:
    return Path(settings.EVALUATION_WORK_ROOT).parent / "runs"


def _unpack(*, run: EvaluationRun, dest: Path) -> None:
    """Fetch the run's archive through its storage into a temporary file of this host, unpack it into a folder
    beside `dest` and rename that into place (a concurrent unpack of the same run keeps the first). Raises
    ArchiveError."""
    names = list(run.results.values_list("task__name", flat=True))
    staging = dest.with_name(f".{dest.name}.{uuid.uuid4().hex[:8]}.tmp")
    local = None
    try:
        local = submission_archive_fetch(submission=run.submission, folder=dest.parent)
        extract_archive(local, staging, limits=archive_limits(), task_names=names)
        try:
            staging.rename(dest)
        except OSError:  # another task of this worker unpacked the same run first
            if not dest.is_dir():
                raise
    finally:
        if local is not None:
            local.unlink(missing_ok=True)
        shutil.rmtree(staging, ignore_errors=True)


def run_extract(*, run: EvaluationRun) -> list[int]:
    """Unpack the submission for the run and return the ids of its results to evaluate.

    The archive is read through its storage (the web host's disk or the object store) into a temporary file of
    this worker, unpacked under EVALUATION_WORK_ROOT/../runs/<run id>, and deleted. A bad archive fails the run and
    the submission with the reason (nothing is scored). The layout warnings were stored when the archive was
    (submissions.services.submission_store). Workers on other hosts unpack their own copy (`run_local_dir`).
    """
    dest = _runs_root() / str(run.pk)
    shutil.rmtree(dest, ignore_errors=True)
    try:
        _unpack(run=run, dest=dest)
    except ArchiveError as exc:
        run_fail(run=run, error=str(exc))
        return []
    EvaluationRun.objects.filter(pk=run.pk).update(
        extracted_dir=str(dest), phase=RunPhase.TASKS, backend=sandbox_backend().name, isolation=sandbox_backend().isolation,
        evaluator_version=EVALUATOR_VERSION, heartbeat=timezone.now(), environment=environment_stamp())
    return list(run.results.filter(status=TaskResult.Status.PENDING).values_list("pk", flat=True))


#: A worker's unpacked copy of a run that is no longer queued or running is deleted after this many seconds (by the
#: next run this worker unpacks): the copies of workers that did not finish the run.
LOCAL_RUN_KEEP_SECONDS = 24 * 3600


def _local_runs_sweep() -> None:
    root = _runs_root()
    old = time.time() - LOCAL_RUN_KEEP_SECONDS
    folders = {int(p.name): p for p in root.iterdir() if p.name.isdigit() and p.stat().st_mtime < old}
    if not folders:
        return
    active = set(EvaluationRun.objects.filter(pk__in=folders, status__in=(RunStatus.QUEUED, RunStatus.RUNNING))
                 .values_list("pk", flat=True))
    for pk, folder in folders.items():
        if pk not in active:
            shutil.rmtree(folder, ignore_errors=True)


def run_local_dir(*, run: EvaluationRun) -> Path:
    """This host's unpacked copy of the run's archive: the folder `run_extract` made when this worker prepared the
    run, else one unpacked now from the storage (a worker on another host than the one that prepared it). Raises
    SandboxError (a platform fault: the archive passed `run_extract`) when it cannot be fetched or unpacked."""
    if run.extracted_dir and Path(run.extracted_dir).is_dir():
        return Path(run.extracted_dir)
    dest = _runs_root() / str(run.pk)
    if dest.is_dir():
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    _local_runs_sweep()
    try:
        _unpack(run=EvaluationRun.objects.select_related("submission").get(pk=run.pk), dest=dest)
    except (ArchiveError, OSError) as exc:
        raise SandboxError(f"this worker could not unpack the submission: {exc}") from exc
    return dest


def run_fail(*, run: EvaluationRun, error: str) -> None:
    """Mark the run and its submission failed: the evaluation itself could not run. A cancelled run stays
    cancelled."""
    now = timezone.now()
    failed = EvaluationRun.objects.filter(pk=run.pk, status__in=(RunStatus.QUEUED, RunStatus.RUNNING)).update(
        status=RunStatus.FAILED, error=error, finished_at=now)
    if failed:
        submission_status_set(submission_id=run.submission_id, status=Submission.Status.FAILED, error=error,
                              finished_at=now, only_from=(Submission.Status.QUEUED, Submission.Status.RUNNING))


def run_cancel(*, submission: Submission, user=None) -> bool:
    """Cancel a generating, queued or running submission: its open runs become `cancelled` (a queued one is never
    claimed; workers evaluating a task of a running one see it within CANCEL_POLL_SECONDS and tear its sandbox
    down, storing nothing), its pending agent calls end failed, and the submission is `cancelled`, which does not
    count against the quota. True when it was cancelled, False when it had already ended (nothing changes)."""
    now = timezone.now()
    active = (Submission.Status.GENERATING, Submission.Status.QUEUED, Submission.Status.RUNNING)
    if not submission_status_set(submission_id=submission.pk, status=Submission.Status.CANCELLED, only_from=active,
                                 finished_at=now, cancelled_by=user if getattr(user, "pk", None) else None,
                                 generation_heartbeat=None):
        return False
    EvaluationRun.objects.filter(submission_id=submission.pk, status__in=(RunStatus.QUEUED, RunStatus.RUNNING)
                                 ).update(status=RunStatus.CANCELLED, finished_at=now)
    GenerationCall.objects.filter(submission_id=submission.pk, status__in=(
        GenerationCall.Status.PENDING, GenerationCall.Status.RUNNING)).update(
        status=GenerationCall.Status.FAILED, reason="the submission was cancelled", finished_at=now)
    return True


def run_is_cancelled(*, run_id: int) -> bool:
    """True when the run was cancelled (evaluation.pipeline.run_cancel)."""
    return EvaluationRun.objects.filter(pk=run_id, status=RunStatus.CANCELLED).exists()


def cancelled_leftovers_remove(*, stale_after: float | None = None) -> int:
    """Delete the unpacked archives of runs cancelled before the stale cutoff (their workers have stopped by
    then); returns how many folders went. Called by tasks.runs_recover."""
    runs = EvaluationRun.objects.filter(status=RunStatus.CANCELLED, finished_at__lt=stale_cutoff(stale_after)
                                        ).exclude(extracted_dir="")
    removed = 0
    for pk, folder in runs.values_list("pk", "extracted_dir"):
        shutil.rmtree(folder, ignore_errors=True)
        removed += EvaluationRun.objects.filter(pk=pk).update(extracted_dir="")
    return removed


def result_claim(*, result_id: int, stale_after: float | None = None) -> TaskResult | None:
    """Claim a pending result (or one whose worker died: running with a stale heartbeat) of a running run whose
    archive is unpacked (phase `tasks`). None if taken, or while the run is not evaluating tasks."""
    stale = stale_cutoff(stale_after)
    claimed = TaskResult.objects.filter(pk=result_id).filter(
        Q(status=TaskResult.Status.PENDING) | Q(status=TaskResult.Status.RUNNING, heartbeat__lt=stale)
    ).filter(run__status=RunStatus.RUNNING, run__phase=RunPhase.TASKS).update(  # unpacked: never an empty folder
        status=TaskResult.Status.RUNNING, heartbeat=timezone.now(), phase=ResultPhase.MATERIALIZE, attempts=F("attempts") + 1)
    if not claimed:
        return None
    return TaskResult.objects.select_related("task__benchmark", "run").get(pk=result_id)


def _phase_recorder(result_id: int, run_id: int):
    def record(phase: str) -> None:
        now = timezone.now()
        TaskResult.objects.filter(pk=result_id).update(phase=phase, heartbeat=now)
        EvaluationRun.objects.filter(pk=run_id).update(heartbeat=now)
    return record


@contextmanager
def _port_lock(port: int):
    """Serialise tasks that would listen on the same host port (only at `process` isolation)."""
    if not sandbox_backend().shares_host_ports():
        yield
        return
    locks = Path(settings.EVALUATION_WORK_ROOT).parent / "locks"
    locks.mkdir(parents=True, exist_ok=True)
    with open(locks / f"port-{port}.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def required_isolation() -> str:
    """The weakest isolation submitted code may run under: EVALUATION_MIN_ISOLATION (default `netns+bwrap`), or
    `process` when the operator opted in with EVALUATION_ALLOW_UNSANDBOXED (trusted folders only)."""
    return "process" if settings.EVALUATION_ALLOW_UNSANDBOXED else settings.EVALUATION_MIN_ISOLATION


def isolation_check() -> None:
    """Refuse to run anything below `required_isolation()`. Raises IsolationTooWeak (→ harness_error, never
    scored) with what to install or set."""
    level, minimum = sandbox_backend().isolation, required_isolation()
    if not isolation_at_least(level, minimum):
        raise IsolationTooWeak(
            f"this worker reaches isolation {level!r}, below the required {minimum!r}, so no repository is run: "
            "install bubblewrap and iproute2 and run the worker as root (or use EVALUATION_BACKEND=docker); for "
            "your own trusted repositories only, EVALUATION_ALLOW_UNSANDBOXED=1 (manage.py evaluate "
            "--allow-unsandboxed) runs them without a sandbox")


def repo_evaluate(*, task: Task, repo: Path | None, on_phase=None, harvest_maven: bool = False,
                  watch: CancelWatch | None = None) -> TaskEvaluation:
    """Evaluate one task's repository folder (None or absent → `missing`) with the configured sandbox.

    `harvest_maven` keeps a Java build's downloads in the platform's Maven repository: for the benchmark's own
    reference solutions only (engine.maven_repo). With `watch`, `watch.cancel()` tears the task's sandbox down
    (evaluation.cancellation) and this raises RunCancelled. Raises SandboxError on platform faults and when the
    isolation is below EVALUATION_MIN_ISOLATION.
    """
    isolation_check()
    backend = sandbox_backend() if watch is None else CancellableBackend(sandbox_backend(), watch)
    try:
        with _port_lock(task.port):
            evaluation = evaluate_task(spec=task_spec(task), repo_src=repo if repo and repo.is_dir() else None,
                                       backend=backend, work_root=work_root(), toolchain=toolchain(),
                                       on_phase=on_phase, harvest_maven=harvest_maven)
    except Exception as exc:
        if watch is not None and watch.cancelled and not isinstance(exc, RunCancelled):
            raise RunCancelled("the run was cancelled") from exc  # the torn-down sandbox failed a command
        raise
    if watch is not None:
        watch.check()  # a cancel that ended a phase early: its outcome says nothing about the submission
    return evaluation


def repo_evaluate_with_retries(*, task: Task, repo: Path | None, harvest_maven: bool = False) -> TaskEvaluation:
    """`repo_evaluate` with the retry rule of a run's results: a platform fault (SandboxError) is tried again after
    RETRY_DELAY_SECONDS, MAX_ATTEMPTS times in all; then the task is `harness_error` (never scored). Never raises
    SandboxError."""
    for attempt in range(1, MAX_ATTEMPTS + 1):
        try:
            return repo_evaluate(task=task, repo=repo, harvest_maven=harvest_maven)
        except SandboxError as exc:
            log.warning("platform fault on %s (attempt %s of %s): %s", task.name, attempt, MAX_ATTEMPTS, exc)
            if attempt == MAX_ATTEMPTS or isinstance(exc, IsolationTooWeak):  # this worker can never run it
                return TaskEvaluation(task=task.name, outcome=Outcome.HARNESS_ERROR.value, dsr=0, tests_passed=0,
                                      tests_total=task.tests_total, detail=without_host_paths(str(exc))[:500])
            time.sleep(RETRY_DELAY_SECONDS)
    raise AssertionError("unreachable")


def folder_evaluate(*, tasks: list[Task], root: Path | None = None, concurrency: int | None = None,
                    on_done=None, harvest_maven: bool = False,
                    repo_of=None) -> list[tuple[Task, TaskEvaluation]]:
    """Evaluate `root/<task.name>` (or `repo_of(task)`, a Path or None, when given) for every task, `concurrency`
    at a time (default EVALUATION_TASK_CONCURRENCY).

    `on_done(task, evaluation)` is called as each finishes. Results come back in the order of `tasks`.
    Platform faults are retried as in a run (`repo_evaluate_with_retries`). Used offline (manage.py evaluate)
    and for reference checks.
    """
    def one(task: Task) -> TaskEvaluation:
        repo = repo_of(task) if repo_of is not None else root / task.name
        evaluation = repo_evaluate_with_retries(task=task, repo=repo, harvest_maven=harvest_maven)
        if on_done:
            on_done(task, evaluation)
        return evaluation

    with ThreadPoolExecutor(max_workers=concurrency or settings.EVALUATION_TASK_CONCURRENCY) as pool:
        return list(zip(tasks, pool.map(one, tasks)))


def references_check(*, tasks: list[Task], runs: int = 3, on_done=None) -> list[Task]:
    """Evaluate every task's reference solution `runs` times against its own suite and record its status:
    `passed` (every run passed), `flaky` (some did), `failed` (none did) or `none` (no reference).

    Returns the flagged tasks (failed or flaky), shown on the task page, in reports and in the admin.
    """
    with_reference = [t for t in tasks if task_reference_dir(t)]
    for t in tasks:
        if t not in with_reference:
            task_set_reference_status(task=t, status=ReferenceStatus.NONE, detail="no reference solution shipped")
    if not with_reference:
        return []
    outcomes: dict[int, list[dict]] = {t.pk: [] for t in with_reference}
    for _ in range(runs):
        for task, evaluation in folder_evaluate(tasks=with_reference, repo_of=task_reference_dir, on_done=on_done,
                                                harvest_maven=True):  # the references are trusted code
            outcomes[task.pk].append(_reference_run(evaluation))
    return [task for task in with_reference
            if reference_status_record(task=task, checks=outcomes[task.pk]) != ReferenceStatus.PASSED]


def _reference_run(evaluation: TaskEvaluation) -> dict:
    """One run of a reference check, as kept on the task (plus its detail, for the record's worst run)."""
    return {"outcome": evaluation.outcome, "passed": evaluation.tests_passed, "total": evaluation.tests_total,
            "seconds": round(sum(v for v in evaluation.durations.values() if v), 1), "detail": evaluation.detail}


def reference_status_record(*, task: Task, checks: list[dict]) -> str:
    """Record the reference status the check runs `checks` (`_reference_run`) give: `passed` when every run
    passed, `flaky` when some did, `failed` when none did; with the worst run's outcome. Returns the status."""
    passes = sum(c["outcome"] == Outcome.PASSED for c in checks)
    status = (ReferenceStatus.PASSED if passes == len(checks) else ReferenceStatus.FLAKY if passes
              else ReferenceStatus.FAILED)
    worst = min(checks, key=lambda c: c["passed"])
    task_set_reference_status(task=task, status=status,
                              runs=[{k: c[k] for k in ("outcome", "passed", "total", "seconds")} for c in checks],
                              detail=f"{passes} of {len(checks)} runs passed; worst: {worst['outcome']}, "
                                     f"{worst['detail']}")
    return status


def reference_check_step(*, task: Task, runs: int, done: list[dict]) -> list[dict] | None:
    """One run of `task`'s reference check, the unit of a check on the worker (tasks.reference_check): evaluate the
    reference once and return the runs so far (`done` plus this one) while fewer than `runs` are done; after the
    last, record the status (`reference_status_record`) and return None. A task shipping no reference is recorded
    `none` at once (None)."""
    reference = task_reference_dir(task)
    if not reference:
        task_set_reference_status(task=task, status=ReferenceStatus.NONE, detail="no reference solution shipped")
        return None
    evaluation = repo_evaluate_with_retries(task=task, repo=reference, harvest_maven=True)  # trusted code
    done = [*done, _reference_run(evaluation)]
    if len(done) < runs:
        return done
    reference_status_record(task=task, checks=done)
    return None


@contextmanager
def _heartbeat(result_id: int, run_id: int, watch: CancelWatch | None = None):
    """Refresh the result's and run's heartbeat every HEARTBEAT_SECONDS while the body runs; with `watch`, look
    every CANCEL_POLL_SECONDS whether the run was cancelled and then `watch.cancel()` (tears the sandbox down)."""
    stop = threading.Event()

    def once(last: float) -> float:
        if watch is not None and not watch.cancelled and run_is_cancelled(run_id=run_id):
            log.info("run %s was cancelled: tearing down the sandbox of result %s", run_id, result_id)
            watch.cancel()
        if time.monotonic() - last < HEARTBEAT_SECONDS:
            return last
        now = timezone.now()
        TaskResult.objects.filter(pk=result_id, status=TaskResult.Status.RUNNING).update(heartbeat=now)
        EvaluationRun.objects.filter(pk=run_id).update(heartbeat=now)
        return time.monotonic()

    def beat() -> None:
        last = time.monotonic()
        try:
            while not stop.wait(CANCEL_POLL_SECONDS if watch is not None else HEARTBEAT_SECONDS):
                try:
                    last = once(last)
                except DatabaseError as exc:  # beat again once the database is back: a silent task is re-claimed
                    log.warning("heartbeat of result %s failed (%s); trying again", result_id, exc)
                    connection.close()
        finally:
            connection.close()

    thread = threading.Thread(target=beat, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def result_evaluate(*, result: TaskResult) -> TaskEvaluation:
    """Run the engine on one claimed result and store what it returns. Raises SandboxError (platform fault) and
    RunCancelled (the run was cancelled meanwhile: the sandbox is torn down, nothing stored).

    A `missing` task takes its detail from the submission's `missing_reasons` when it has one there.
    """
    run = result.run
    watch = CancelWatch()
    record = _phase_recorder(result.pk, run.pk)

    def on_phase(phase: str) -> None:
        watch.check()  # the engine's finally tears down what the task opened
        record(phase)

    with _heartbeat(result.pk, run.pk, watch):
        evaluation = repo_evaluate(task=result.task, repo=run_local_dir(run=run) / result.task.name,
                                   on_phase=on_phase, watch=watch)
    if evaluation.outcome == Outcome.MISSING:  # e.g. the agent endpoint failed this task: say why
        reason = (Submission.objects.filter(pk=run.submission_id).values_list("missing_reasons", flat=True)
                  .first() or {}).get(result.task.name)
        if reason:
            evaluation = replace(evaluation, detail=str(reason)[:500])
    result_store(result=result, evaluation=evaluation)
    return evaluation


def result_store(*, result: TaskResult, evaluation: TaskEvaluation) -> bool:
    """Persist an engine TaskEvaluation on the result row (core.report.evaluation_fields) and mark it done. A result
    held by a claim (`running`) is stored only while that claim is still its own (same status and attempt): a worker
    that outlived its heartbeat, whose task was claimed again by another, stores nothing, so a task is never scored
    twice. On a split that is not public the phase durations are stored in whole seconds (red team round 12: with
    P and N, a test phase timed to the millisecond tells how far a probing submission got through the hidden tests).
    Returns whether it was stored."""
    fields = {**evaluation_fields(evaluation), "status": TaskResult.Status.DONE, "phase": ResultPhase.DONE,
              "finished_at": timezone.now()}
    split = Split.objects.filter(submissions__runs__results=result.pk).values_list("visibility", flat=True).first()
    if split is not None and split != Split.Visibility.PUBLIC:
        fields["durations"] = {phase: round(seconds) if isinstance(seconds, (int, float)) else seconds
                               for phase, seconds in fields["durations"].items()}
    rows = TaskResult.objects.filter(pk=result.pk)
    if result.status == TaskResult.Status.RUNNING:
        rows = rows.filter(status=TaskResult.Status.RUNNING, attempts=result.attempts)
    if not rows.update(**fields):
        log.warning("result %s was claimed again while attempt %s ran: this evaluation is not stored", result.pk,
                    result.attempts)
        return False
    for name, value in fields.items():
        setattr(result, name, value)
    return True


def result_release_after_fault(*, result_id: int, error: str, retry: bool = True) -> bool:
    """A platform fault (harness_error) hit a result: put it back to pending for a retry.

    Returns False when the attempts are used up, or at once when `retry` is False (a fault that would happen again
    the same way); then the result is stored as `harness_error` (never scored: the run is failed rather than
    finished), its detail `error` without host paths (`without_host_paths`).
    """
    result = TaskResult.objects.get(pk=result_id)
    if retry and result.attempts < MAX_ATTEMPTS:
        TaskResult.objects.filter(pk=result_id).update(status=TaskResult.Status.PENDING, phase=ResultPhase.RETRY)
        return True
    TaskResult.objects.filter(pk=result_id).update(status=TaskResult.Status.DONE, outcome=Outcome.HARNESS_ERROR.value,
                                                   detail=without_host_paths(error)[:500], finished_at=timezone.now())
    return False


def run_finalize_if_done(*, run_id: int) -> bool:
    """When every result of the run is done, store the summary and finish the run (exactly once).

    A run with a `harness_error` result is failed, not scored (docs/scoring.md "Failure taxonomy").
    """
    if TaskResult.objects.filter(run_id=run_id).exclude(status=TaskResult.Status.DONE).exists():
        return False
    run = EvaluationRun.objects.select_related("submission").get(pk=run_id)
    results = list(run.results.select_related("task"))
    if any(r.outcome == Outcome.HARNESS_ERROR for r in results):
        if run.status == RunStatus.RUNNING:
            run_fail(run=run, error="the platform could not evaluate every task (harness_error); please resubmit")
        return True
    now = timezone.now()
    finished = EvaluationRun.objects.filter(pk=run_id, status=RunStatus.RUNNING).update(
        status=RunStatus.FINISHED, phase=RunPhase.FINISHED, finished_at=now, summary=_summary(results))
    if finished:
        board_changed.send(sender=EvaluationRun, run_id=run_id)  # a bulk UPDATE: no post_save reached the board
        submission_status_set(submission_id=run.submission_id, status=Submission.Status.FINISHED, finished_at=now)
        if run.extracted_dir:
            shutil.rmtree(run.extracted_dir, ignore_errors=True)
    return bool(finished)


def _summary(results: list[TaskResult]) -> dict:
    """The run summary from its stored results (the same code path as the report)."""
    return summarize([entry_from_result(r) for r in results])


def result_process(*, result_id: int) -> Step:
    """Claim one result, evaluate it and store it, then finish the run if it was the last one: the step every way
    of running a submission shares (Celery's `result_run`, `run_execute_inline`).

    On a platform fault of the sandbox (SandboxError: a sandbox that could not be made, a service the platform
    needs out of reach) the result is released for a retry (Step.RETRY) until MAX_ATTEMPTS are used; then it is
    stored as `harness_error` and the run fails rather than finish (docs/scoring.md "Failure taxonomy"). Any other
    exception is a fault of the platform's code, which would fail the same way again: it is stored as
    `harness_error` at once, its detail naming the exception's kind only (red team round 13: an OSError the engine
    did not expect, raised by a tree the submission shaped, cost three full builds and showed a host path).
    """
    result = result_claim(result_id=result_id)
    if result is None:
        log.info("result %s already claimed or done: nothing to do", result_id)
        return Step.TAKEN
    try:
        result_evaluate(result=result)
    except RunCancelled:
        log.info("result %s stopped: its run was cancelled", result_id)
        TaskResult.objects.filter(pk=result_id, status=TaskResult.Status.RUNNING).update(
            status=TaskResult.Status.PENDING, phase=ResultPhase.NONE)
        return Step.DONE
    except DatabaseError:  # the database went away: the result stays running, stale_work sends it again
        raise
    except SandboxError as exc:  # the platform's sandbox or services failed: another attempt may succeed
        log.exception("platform fault on result %s", result_id)
        if result_release_after_fault(result_id=result_id, error=str(exc)):
            return Step.RETRY
    except Exception as exc:  # a fault of the platform's own code (never the submission's): not retried
        log.exception("fault of the evaluator's code on result %s", result_id)
        result_release_after_fault(result_id=result_id, retry=False,
                                   error=f"the evaluator failed ({type(exc).__name__}); please resubmit")
    run_finalize_if_done(run_id=result.run_id)
    return Step.DONE


def run_prepare(*, run_id: int) -> list[int] | None:
    """Claim a queued run and unpack its archive: the ids of the results to evaluate, or None when another
    delivery claimed the run. A run without results to evaluate (a refused archive) is finished here."""
    run = run_claim(run_id=run_id)
    if run is None:
        log.info("run %s already claimed: nothing to do", run_id)
        return None
    try:
        result_ids = run_extract(run=run)
    except DatabaseError:  # the database went away: the run stays in `extract`, unpacked again by stale_work
        log.exception("run %s could not be prepared: the database failed; the recovery unpacks it again", run_id)
        raise
    except Exception as exc:  # a platform fault while unpacking: fail visibly rather than hang in "extract"
        log.exception("run %s could not be prepared", run_id)
        run_fail(run=run, error=UNPACK_FAILED.format(reason=type(exc).__name__))
        return []
    if not result_ids:
        run_finalize_if_done(run_id=run_id)
    return result_ids


def run_execute_inline(*, run_id: int, concurrency: int | None = None) -> EvaluationRun:
    """Evaluate a queued run in this process (seeding, re-scoring by hand): the worker's steps without Celery,
    with the same claims and the same retry of platform faults (`result_process`), so a worker that receives the
    same run later finds nothing to do.
    """
    def one(result_id: int) -> None:
        try:
            while result_process(result_id=result_id) is Step.RETRY:
                time.sleep(RETRY_DELAY_SECONDS)
        finally:
            connection.close()  # this pool thread's own connection (PostgreSQL would keep the session)

    result_ids = run_prepare(run_id=run_id)
    if result_ids:
        with ThreadPoolExecutor(max_workers=concurrency or settings.EVALUATION_TASK_CONCURRENCY) as pool:
            list(pool.map(one, result_ids))
    return EvaluationRun.objects.get(pk=run_id)


def stale_work(*, stale_after: float | None = None,
               waiting_lost: Callable[[bool], bool] | None = None) -> tuple[list[int], list[int]]:
    """What a dead worker left behind or the broker lost, as (queued run ids, result ids to send again); see
    tasks.recover_work.

    - queued runs created before the stale cutoff, when `waiting_lost(run.background)` (None: always) says their
      queue can no longer hold their message (tasks.recover_work: the queue is empty);
    - runs whose worker died while unpacking (running, phase `extract`, stale heartbeat): put back in the queue to be
      unpacked again, or failed once MAX_ATTEMPTS claims could not unpack them; their results are never sent
      before (result_claim refuses them), so no task is evaluated against a folder that was not unpacked;
    - results running with a stale heartbeat: put back to pending, or stored as `harness_error` once MAX_ATTEMPTS
      claims died with their worker (a task that kills its worker is not sent again forever);
    - pending results of running runs whose heartbeat is stale, again when `waiting_lost(run.background)`;
      a result released here from a dead worker always.
    A harness fault is never scored: the retried attempt's result replaces it. A run or result that waits in its
    queue behind other work is not lost: sending it again would only put a duplicate message in the queue.
    """
    lost = waiting_lost or (lambda background: True)
    stale = stale_cutoff(stale_after)
    runs = [pk for pk, background in EvaluationRun.objects.filter(status=RunStatus.QUEUED, created_at__lt=stale)
            .values_list("pk", "background") if lost(background)]
    unpacking = EvaluationRun.objects.filter(status=RunStatus.RUNNING, phase=RunPhase.EXTRACT, heartbeat__lt=stale)
    for run in unpacking.select_related("submission"):
        if run.attempts >= MAX_ATTEMPTS:
            run_fail(run=run, error=UNPACK_FAILED.format(reason=f"{run.attempts} attempts"))
        elif unpacking.filter(pk=run.pk).update(status=RunStatus.QUEUED, phase=RunPhase.QUEUED):
            runs.append(run.pk)
    dead = list(TaskResult.objects.filter(status=TaskResult.Status.RUNNING, heartbeat__lt=stale,
                                          run__status=RunStatus.RUNNING).values_list("pk", "run_id"))
    for pk, run_id in dead:  # a task that killed its worker MAX_ATTEMPTS times is a harness_error, not a loop
        if not result_release_after_fault(result_id=pk, error=f"the worker died while evaluating it "
                                                              f"({MAX_ATTEMPTS} attempts)"):
            run_finalize_if_done(run_id=run_id)
    dead = {pk for pk, _ in dead}
    orphans = [pk for pk, background in TaskResult.objects.filter(
        status=TaskResult.Status.PENDING, run__status=RunStatus.RUNNING).filter(
        Q(run__heartbeat__lt=stale) | Q(pk__in=dead)).values_list("pk", "run__background")
        if pk in dead or lost(background)]
    return runs, orphans
