"""Writes for evaluation runs and task results. Celery tasks and commands call these.

Idempotence: a run or result is *claimed* with a guarded UPDATE on its status, so a message
delivered twice finds nothing to claim (DESIGN.md "Conventions").
"""
from __future__ import annotations

import fcntl
import threading
from dataclasses import replace
from concurrent.futures import ThreadPoolExecutor
import logging
import shutil
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from core.engine import EVALUATOR_VERSION
from core.engine.archive import ArchiveError, ArchiveLimits, extract_archive
from core.engine.runner import evaluate_task
from core.engine.spec import TaskEvaluation
from core.sandbox import SandboxError
from catalog.models import Split, Task
from catalog.services import task_reference_dir, task_set_reference_status
from submissions.models import Submission

from core.report import entry_from_result, summarize
from .engine_setup import environment_stamp, sandbox_backend, task_spec, toolchain, work_root
from .models import EvaluationRun, RunStatus, TaskResult

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 3
#: A running result refreshes its heartbeat this often (seconds); one silent for
#: EVALUATION_STALE_SECONDS (default 60) lost its worker.
HEARTBEAT_SECONDS = 5


def archive_limits() -> ArchiveLimits:
    """Upload limits from settings (SUBMISSION_MAX_MEMBERS, _EXTRACTED_BYTES, _RATIO)."""
    return ArchiveLimits(max_members=settings.SUBMISSION_MAX_MEMBERS,
                         max_bytes=settings.SUBMISSION_MAX_EXTRACTED_BYTES, max_ratio=settings.SUBMISSION_MAX_RATIO)


def run_create(*, submission: Submission, split: Split | None = None, enqueue: bool = True) -> EvaluationRun:
    """Create a queued run with one pending result per task of `split` (default: the submission's split).

    With `enqueue` the Celery job is sent after commit; without, the caller runs it (`run_execute_inline`).
    """
    from .tasks import run_prepare  # tasks import services: keep the import local

    split = split or submission.split
    run = EvaluationRun.objects.create(submission=submission, benchmark=split.benchmark, split=split)
    TaskResult.objects.bulk_create(
        TaskResult(run=run, task=t, tests_total=t.tests_total, ac_declared=len(t.declared_endpoints))
        for t in split.tasks.order_by("name")
    )
    if enqueue:
        run_prepare.delay_on_commit(run.pk)
    return run


def run_claim(*, run_id: int) -> EvaluationRun | None:
    """Move a queued run to running (once); None when another delivery already claimed it."""
    claimed = EvaluationRun.objects.filter(pk=run_id, status=RunStatus.QUEUED).update(
        status=RunStatus.RUNNING, phase="extract", started_at=timezone.now(), heartbeat=timezone.now(),
        attempts=F("attempts") + 1,
    )
    if not claimed:
        return None
    Submission.objects.filter(runs__pk=run_id).update(status=Submission.Status.RUNNING)
    return EvaluationRun.objects.select_related("submission__split").get(pk=run_id)


def run_extract(*, run: EvaluationRun) -> list[int]:
    """Unpack the submission for the run and return the ids of its results to evaluate.

    A bad archive fails the run and the submission with the reason (nothing is scored).
    """
    submission = run.submission
    dest = Path(settings.EVALUATION_WORK_ROOT).parent / "runs" / str(run.pk)
    shutil.rmtree(dest, ignore_errors=True)
    names = list(run.results.values_list("task__name", flat=True))
    try:
        manifest = extract_archive(Path(submission.archive.path), dest, limits=archive_limits(), task_names=names)
    except ArchiveError as exc:
        run_fail(run=run, error=str(exc))
        return []
    warnings = manifest.layout_warnings(names)
    with transaction.atomic():
        Submission.objects.filter(pk=submission.pk).update(layout_warnings=warnings)
        EvaluationRun.objects.filter(pk=run.pk).update(
            extracted_dir=str(dest), phase="tasks", backend=sandbox_backend().name,
            isolation=sandbox_backend().isolation, evaluator_version=EVALUATOR_VERSION, heartbeat=timezone.now(),
            environment=environment_stamp(),
        )
    return list(run.results.filter(status=TaskResult.Status.PENDING).values_list("pk", flat=True))


def run_fail(*, run: EvaluationRun, error: str) -> None:
    """Mark the run and its submission failed: the evaluation itself could not run."""
    now = timezone.now()
    EvaluationRun.objects.filter(pk=run.pk).update(status=RunStatus.FAILED, error=error, finished_at=now)
    Submission.objects.filter(pk=run.submission_id).update(status=Submission.Status.FAILED, error=error,
                                                           finished_at=now)


def result_claim(*, result_id: int, stale_after: float | None = None) -> TaskResult | None:
    """Claim a pending result (or one whose worker died: running with a stale heartbeat). None if taken."""
    stale = timezone.now() - timedelta(seconds=settings.EVALUATION_STALE_SECONDS if stale_after is None else stale_after)
    claimed = TaskResult.objects.filter(pk=result_id).filter(
        Q(status=TaskResult.Status.PENDING) | Q(status=TaskResult.Status.RUNNING, heartbeat__lt=stale)
    ).filter(run__status=RunStatus.RUNNING).update(
        status=TaskResult.Status.RUNNING, heartbeat=timezone.now(), phase="materialize", attempts=F("attempts") + 1)
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


#: Strength of each isolation level (EVALUATION_MIN_ISOLATION compares these).
ISOLATION_RANK = {"process": 0, "netns+bwrap": 1, "netns+bwrap+cgroup": 2, "docker": 2}


def isolation_check() -> None:
    """Refuse to score below EVALUATION_MIN_ISOLATION. Raises SandboxError (→ harness_error, never scored)."""
    level, minimum = sandbox_backend().isolation, settings.EVALUATION_MIN_ISOLATION
    if ISOLATION_RANK.get(level, 0) < ISOLATION_RANK.get(minimum, 0):
        raise SandboxError(f"this worker reaches isolation {level!r}, below the required {minimum!r}: "
                           "install bubblewrap and iproute2 and run the worker as root")


def task_evaluate(*, task: Task, repo: Path | None, on_phase=None, harvest_maven: bool = False) -> TaskEvaluation:
    """Evaluate one task's repository folder (None or absent → `missing`) with the configured sandbox.

    `harvest_maven` keeps a Java build's downloads in the platform's Maven repository: for the benchmark's own
    reference solutions only (engine.maven_repo). Raises SandboxError on platform faults and when the isolation is
    below EVALUATION_MIN_ISOLATION.
    """
    isolation_check()
    with _port_lock(task.port):
        return evaluate_task(spec=task_spec(task), repo_src=repo if repo and repo.is_dir() else None,
                             backend=sandbox_backend(), work_root=work_root(), toolchain=toolchain(),
                             on_phase=on_phase, harvest_maven=harvest_maven)


def folder_evaluate(*, tasks: list[Task], root: Path, concurrency: int | None = None,
                    on_done=None, harvest_maven: bool = False) -> list[tuple[Task, TaskEvaluation]]:
    """Evaluate `root/<task.name>` for every task, `concurrency` at a time (default EVALUATION_TASK_CONCURRENCY).

    `on_done(task, evaluation)` is called as each finishes. Results come back in the order of `tasks`.
    A platform fault on one task is recorded as `harness_error` for it. Used offline (manage.py evaluate)
    and for reference checks.
    """
    def one(task: Task) -> TaskEvaluation:
        try:
            evaluation = task_evaluate(task=task, repo=root / task.name, harvest_maven=harvest_maven)
        except SandboxError as exc:
            evaluation = TaskEvaluation(task=task.name, outcome="harness_error", dsr=0, tests_passed=0,
                                        tests_total=task.tests_total, detail=str(exc)[:500])
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
            task_set_reference_status(task=t, status="none", detail="no reference solution shipped")
    if not with_reference:
        return []
    root = task_reference_dir(with_reference[0]).parent  # every reference of a version sits side by side
    outcomes: dict[int, list[TaskEvaluation]] = {t.pk: [] for t in with_reference}
    for _ in range(runs):
        for task, evaluation in folder_evaluate(tasks=with_reference, root=root, on_done=on_done,
                                                harvest_maven=True):  # the references are trusted code
            outcomes[task.pk].append(evaluation)
    flagged = []
    for task in with_reference:
        passes = sum(e.outcome == "passed" for e in outcomes[task.pk])
        status = "passed" if passes == runs else "flaky" if passes else "failed"
        worst = min(outcomes[task.pk], key=lambda e: e.tests_passed)
        checks = [{"outcome": e.outcome, "passed": e.tests_passed, "total": e.tests_total,
                   "seconds": round(sum(v for v in e.durations.values() if v), 1)} for e in outcomes[task.pk]]
        task_set_reference_status(task=task, status=status, runs=checks,
                                  detail=f"{passes} of {runs} runs passed; worst: {worst.outcome}, {worst.detail}")
        if status != "passed":
            flagged.append(task)
    return flagged


@contextmanager
def _heartbeat(result_id: int, run_id: int):
    """Refresh the result's and run's heartbeat every HEARTBEAT_SECONDS while the body runs."""
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(HEARTBEAT_SECONDS):
                now = timezone.now()
                TaskResult.objects.filter(pk=result_id, status=TaskResult.Status.RUNNING).update(heartbeat=now)
                EvaluationRun.objects.filter(pk=run_id).update(heartbeat=now)
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
    """Run the engine on one claimed result and store what it returns. Raises SandboxError (platform fault).

    A `missing` task takes its detail from the submission's `missing_reasons` when it has one there.
    """
    run = result.run
    with _heartbeat(result.pk, run.pk):
        evaluation = task_evaluate(task=result.task, repo=Path(run.extracted_dir) / result.task.name,
                                   on_phase=_phase_recorder(result.pk, run.pk))
    if evaluation.outcome == "missing":  # e.g. the agent endpoint failed this task: say why
        reason = (Submission.objects.filter(pk=run.submission_id).values_list("missing_reasons", flat=True)
                  .first() or {}).get(result.task.name)
        if reason:
            evaluation = replace(evaluation, detail=str(reason)[:500])
    result_store(result=result, evaluation=evaluation)
    return evaluation


def result_store(*, result: TaskResult, evaluation: TaskEvaluation) -> None:
    """Persist an engine TaskEvaluation on the result row and mark it done."""
    result.outcome = evaluation.outcome
    result.dsr = evaluation.dsr
    result.ac = evaluation.ac
    result.ac_declared = evaluation.ac_declared
    result.ac_implemented = evaluation.ac_implemented
    result.endpoints = [{"method": e.method, "path": e.path, "implemented": e.implemented, "evidence": e.evidence}
                        for e in evaluation.endpoints]
    result.tests_passed = evaluation.tests_passed
    result.tests_total = evaluation.tests_total
    result.pass_at_1 = evaluation.pass_at_1
    result.solved = evaluation.solved
    result.durations = evaluation.durations
    result.logs = evaluation.logs
    result.cases = [{"name": c.name, "status": c.status} for c in evaluation.cases]
    result.detail = evaluation.detail[:500]
    result.status = TaskResult.Status.DONE
    result.phase = "done"
    result.finished_at = timezone.now()
    result.save()


def result_release_after_fault(*, result_id: int, error: str) -> bool:
    """A platform fault (harness_error) hit a result: put it back to pending for a retry.

    Returns False when the attempts are used up; then the result is stored as `harness_error`
    (never scored: the run is failed rather than finished).
    """
    result = TaskResult.objects.get(pk=result_id)
    if result.attempts < MAX_ATTEMPTS:
        TaskResult.objects.filter(pk=result_id).update(status=TaskResult.Status.PENDING, phase="retry")
        return True
    TaskResult.objects.filter(pk=result_id).update(status=TaskResult.Status.DONE, outcome="harness_error",
                                                   detail=error[:500], finished_at=timezone.now())
    return False


def run_finalize_if_done(*, run_id: int) -> bool:
    """When every result of the run is done, store the summary and finish the run (exactly once).

    A run with a `harness_error` result is failed, not scored (SCORING.md "Failure taxonomy").
    """
    if TaskResult.objects.filter(run_id=run_id).exclude(status=TaskResult.Status.DONE).exists():
        return False
    run = EvaluationRun.objects.select_related("submission").get(pk=run_id)
    results = list(run.results.select_related("task"))
    if any(r.outcome == "harness_error" for r in results):
        if run.status == RunStatus.RUNNING:
            run_fail(run=run, error="the platform could not evaluate every task (harness_error); please resubmit")
        return True
    now = timezone.now()
    finished = EvaluationRun.objects.filter(pk=run_id, status=RunStatus.RUNNING).update(
        status=RunStatus.FINISHED, phase="finished", finished_at=now, summary=_summary(results))
    if finished:
        Submission.objects.filter(pk=run.submission_id).update(status=Submission.Status.FINISHED, finished_at=now)
        if run.extracted_dir:
            shutil.rmtree(run.extracted_dir, ignore_errors=True)
    return bool(finished)


def _summary(results: list[TaskResult]) -> dict:
    """The run summary from its stored results (the same code path as the report)."""
    return summarize([entry_from_result(r) for r in results])


def run_execute_inline(*, run_id: int, concurrency: int | None = None) -> EvaluationRun:
    """Evaluate a queued run in this process (seeding, re-scoring by hand): the worker's steps without Celery.

    Claims work the same way, so a worker that receives the same run later finds nothing to do.
    """
    run = run_claim(run_id=run_id)
    if run is not None:
        claimed = [r for r in (result_claim(result_id=pk) for pk in run_extract(run=run)) if r is not None]

        def one(result: TaskResult) -> None:
            try:
                result_evaluate(result=result)
            except SandboxError as exc:
                result_release_after_fault(result_id=result.pk, error=str(exc))
            finally:
                connection.close()  # this pool thread's own connection (PostgreSQL would keep the session)

        with ThreadPoolExecutor(max_workers=concurrency or settings.EVALUATION_TASK_CONCURRENCY) as pool:
            list(pool.map(one, claimed))
        run_finalize_if_done(run_id=run_id)
    return EvaluationRun.objects.get(pk=run_id)


def runs_recover(*, stale_after: float | None = None) -> dict[str, int]:
    """Re-enqueue work a dead worker left behind (called at worker start and every minute by beat).

    - queued runs older than `stale_after` seconds: `run_prepare` again (its claim makes it run once);
    - results running with a heartbeat older than `stale_after`: back to pending and `result_run` again;
    - pending results of running runs whose heartbeat is stale: `result_run` again.
    A harness fault is never scored: the retried attempt's result replaces it. Returns counts.
    """
    from .tasks import result_run, run_prepare

    stale = timezone.now() - timedelta(seconds=settings.EVALUATION_STALE_SECONDS if stale_after is None else stale_after)
    runs = list(EvaluationRun.objects.filter(status=RunStatus.QUEUED, created_at__lt=stale).values_list("pk", flat=True))
    for run_id in runs:
        run_prepare.delay(run_id)
    dead = list(TaskResult.objects.filter(status=TaskResult.Status.RUNNING, heartbeat__lt=stale,
                                          run__status=RunStatus.RUNNING).values_list("pk", flat=True))
    TaskResult.objects.filter(pk__in=dead).update(status=TaskResult.Status.PENDING, phase="retry")
    orphans = list(TaskResult.objects.filter(status=TaskResult.Status.PENDING, run__status=RunStatus.RUNNING)
                   .filter(Q(run__heartbeat__lt=stale) | Q(pk__in=dead)).values_list("pk", flat=True))
    for result_id in orphans:
        result_run.delay(result_id)
    return {"runs": len(runs), "results": len(orphans)}


def submission_rescore(*, submission: Submission) -> EvaluationRun:
    """Score a stored submission again on the current version of its benchmark's same-named split, in the
    background (a new run; the older runs and their results stay). Does not count against the quota.

    Raises Split.DoesNotExist when the current version has no split of that name.
    """
    current = Split.objects.get(benchmark__name=submission.split.benchmark.name, benchmark__is_current=True,
                                name=submission.split.name)
    with transaction.atomic():
        Submission.objects.filter(pk=submission.pk).update(status=Submission.Status.QUEUED, finished_at=None,
                                                           error="")
        return run_create(submission=submission, split=current)
