"""The generation of endpoint submissions: calling a system's agent for every task, then opening the run.

An endpoint run is a Submission (`source` endpoint) that starts in `generating`: one GenerationCall per task of
the split (`generation_open`). `generation_execute` (the Celery task `submission_generate`) calls the agent for
every task, at most AGENT_MAX_IN_FLIGHT at a time, unpacks each answer under the upload limits, packs the
generated folders into the submission's archive and opens its evaluation run (`pipeline.run_open`; the task
sends it). A task the agent failed has no folder, so it is scored `missing` with the reason kept.
"""
from __future__ import annotations

import hashlib
import logging
import math
import secrets as pysecrets
import shutil
import tempfile
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from catalog.models import Split, System, Task
from core.engine import EVALUATOR_VERSION, similarity
from core.engine.archive import ArchiveError, extract_repository
from submissions.agents.client import AgentResult, call_agent
from submissions.agents.crypto import SecretUnreadable, secret_decrypt
from submissions.agents.protocol import build_request
from submissions.agents.services import EndpointError, agent_limits
from submissions.archives import zip_folders
from submissions.models import AgentEndpoint, GenerationCall, Submission
from submissions.services import (SubmissionError, archive_limits, near_copy_check, near_copy_targets, near_copy_wanted,
                                  note_check, quota_check)

from .pipeline import run_open, stale_cutoff, submission_status_set



log = logging.getLogger(__name__)


USER_AGENT = f"RepoGenesis-Leaderboard/{EVALUATOR_VERSION} (agent/1)"


#: The generating worker refreshes the submission's heartbeat at least this often (seconds).
HEARTBEAT_SECONDS = 5


# --- starting a run -------------------------------------------------------------------------
def time_limit(task_count: int) -> int:
    """Seconds a generation may take: every task's deadline, N at a time, plus packing time."""
    waves = math.ceil(max(task_count, 1) / max(settings.AGENT_MAX_IN_FLIGHT, 1))
    return int(waves * (settings.AGENT_TASK_DEADLINE_SECONDS + 60) + 600)


def generation_open(*, system: System, split: Split, user: User | AnonymousUser | None, note: str = "",
                    is_public: bool = True) -> Submission:
    """Open an endpoint run of `system` on `split`: a `generating` submission with one pending GenerationCall per
    task (evaluation.services.generation_start sends `submission_generate`).

    Raises EndpointError when the system has no endpoint, the split is hidden (admins only), the system
    already has a run generating (one at a time per endpoint), SubmissionError for a refused note
    (submissions.services.note_check), and QuotaExceeded like an upload.
    """
    note_check(note)
    endpoint = AgentEndpoint.objects.filter(system=system).first()
    if endpoint is None:
        raise EndpointError(f"The system {system.name} has no agent endpoint: register its URL first.")
    if split.visibility == Split.Visibility.HIDDEN and not getattr(user, "is_staff", False):
        raise EndpointError(f"The split {split} is hidden: only admins can start runs on it.")
    tasks = list(split.tasks.order_by("name"))
    if not tasks:
        raise EndpointError(f"The split {split} has no task.")
    quota_check(system=system, user=user)  # refused early; checked again under the locks below
    with transaction.atomic():
        quota_check(system=system, user=user, hold=True)  # count and insert in one transaction, one team at a time
        AgentEndpoint.objects.select_for_update().get(pk=endpoint.pk)  # serialise starts per endpoint
        if Submission.objects.filter(system=system, status=Submission.Status.GENERATING).exists():
            raise EndpointError(f"The system {system.name} already has a run calling its agent; wait until it "
                                "has finished generating.")
        submission = Submission.objects.create(
            system=system, split=split, submitted_by=user if getattr(user, "pk", None) else None,
            token=pysecrets.token_hex(12), archive_name="", note=note, is_public=is_public,
            status=Submission.Status.GENERATING, source=Submission.Source.ENDPOINT)
        GenerationCall.objects.bulk_create(GenerationCall(submission=submission, task=t) for t in tasks)
    return submission


# --- generating -------------------------------------------------------------------------------
def generation_claim(*, submission_id: int, stale_after: float | None = None) -> Submission | None:
    """Claim a generating submission nobody works on (no heartbeat, or one older than `stale_after`,
    default EVALUATION_STALE_SECONDS). None when another worker holds it or it is no longer generating."""
    stale = stale_cutoff(stale_after)
    claimed = Submission.objects.filter(pk=submission_id, status=Submission.Status.GENERATING).filter(
        Q(generation_heartbeat__isnull=True) | Q(generation_heartbeat__lt=stale)
    ).update(generation_heartbeat=timezone.now(), generation_attempts=F("generation_attempts") + 1)
    if not claimed:
        return None
    return Submission.objects.select_related("system", "split").get(pk=submission_id)


def _work_dir(submission: Submission) -> Path:
    return Path(settings.VAR_DIR) / "generation" / str(submission.pk)


@dataclass(frozen=True)
class _Outcome:
    """What one task's generation gave (built in a worker thread; stored by the main thread)."""

    result: AgentResult
    ok: bool
    reason: str = ""
    files: int = 0


def _unpack(data: bytes, dest: Path) -> int:
    """Extract an answer (zip or tar bytes) into `dest` under the upload limits; the file count.
    Raises ArchiveError."""
    shutil.rmtree(dest, ignore_errors=True)
    with tempfile.NamedTemporaryFile(dir=dest.parent, suffix=".answer") as tmp:
        tmp.write(data)
        tmp.flush()
        extract_repository(Path(tmp.name), dest, limits=archive_limits())
    return sum(1 for p in dest.rglob("*") if p.is_file())


def _fetch(*, task: Task, url: str, secret: str, dest: Path, request_id: str) -> _Outcome:
    """Call the agent for one task and unpack its answer into `dest`. Runs in a pool thread: no database
    access here. Never raises."""
    limits = agent_limits()
    payload = build_request(task=task.name, language=task.language, framework=task.framework or None,
                            port=task.port, readme=task.readme, files=task.handout_files or {},
                            deadline_seconds=limits.deadline)
    try:
        result = call_agent(url=url, secret=secret, payload=payload, limits=limits, user_agent=USER_AGENT,
                            request_id=request_id)
    except Exception as exc:  # a bug of ours must not take the other tasks down
        log.exception("agent call for %s failed unexpectedly", task.name)
        return _Outcome(AgentResult(ok=False), False, f"platform error while calling the agent ({type(exc).__name__})")
    if not result.ok:
        return _Outcome(result, False, result.reason)
    try:
        files = _unpack(result.archive, dest)
    except ArchiveError as exc:
        return _Outcome(result, False, f"the generated repository was refused: {exc}")
    except OSError as exc:
        return _Outcome(result, False, f"the generated repository could not be unpacked ({exc.strerror or exc})")
    return _Outcome(result, True, files=files)


def _store(call: GenerationCall, outcome: _Outcome) -> None:
    r = outcome.result
    GenerationCall.objects.filter(pk=call.pk).update(
        status=GenerationCall.Status.SUCCEEDED if outcome.ok else GenerationCall.Status.FAILED,
        http_status=r.http_status, duration=r.seconds, attempts=r.attempts, response_bytes=r.response_bytes,
        files=outcome.files, reason=outcome.reason[:500], calls=[c.as_dict() for c in r.calls],
        finished_at=timezone.now())
    log.info("generation of %s for submission %s: %s (HTTP %s, %.2f s, %s attempts)%s", call.task.name,
             call.submission_id, "generated" if outcome.ok else "failed", r.http_status, r.seconds, r.attempts,
             f": {outcome.reason}" if outcome.reason else "")


def _fail_all(calls: list[GenerationCall], reason: str) -> None:
    GenerationCall.objects.filter(pk__in=[c.pk for c in calls]).update(
        status=GenerationCall.Status.FAILED, reason=reason[:500], finished_at=timezone.now())


def _beat(submission_id: int) -> bool:
    """Refresh the heartbeat; False when the submission is no longer generating (cancelled)."""
    return bool(Submission.objects.filter(pk=submission_id, status=Submission.Status.GENERATING).update(
        generation_heartbeat=timezone.now()))


def _pending_calls(submission: Submission, workdir: Path) -> list[GenerationCall]:
    """Calls to make: pending ones, ones a dead worker left running, and generated ones whose folder is gone."""
    calls = list(submission.generation_calls.select_related("task"))
    redo = [c for c in calls if c.status in (GenerationCall.Status.PENDING, GenerationCall.Status.RUNNING)
            or (c.status == GenerationCall.Status.SUCCEEDED and not (workdir / c.task.name).is_dir())]
    GenerationCall.objects.filter(pk__in=[c.pk for c in redo]).update(status=GenerationCall.Status.PENDING)
    return redo


def _call_all(submission: Submission, calls: list[GenerationCall], url: str, secret: str, workdir: Path) -> None:
    """Call the agent for `calls`, AGENT_MAX_IN_FLIGHT at a time. Database writes stay in this thread. Stops
    within HEARTBEAT_SECONDS when the submission is cancelled: no new call starts, calls in flight are abandoned
    (their threads end at their deadline; nothing they return is kept)."""
    queue = deque(calls)
    in_flight: dict[Future, GenerationCall] = {}
    pool = ThreadPoolExecutor(max_workers=max(settings.AGENT_MAX_IN_FLIGHT, 1))
    try:
        while queue or in_flight:
            while queue and len(in_flight) < max(settings.AGENT_MAX_IN_FLIGHT, 1):
                call = queue.popleft()
                GenerationCall.objects.filter(pk=call.pk).update(status=GenerationCall.Status.RUNNING,
                                                                 started_at=timezone.now())
                future = pool.submit(_fetch, task=call.task, url=url, secret=secret,
                                     dest=workdir / call.task.name, request_id=f"submission-{submission.pk}/{call.task.name}")
                in_flight[future] = call
            done, _ = wait(in_flight, timeout=HEARTBEAT_SECONDS, return_when=FIRST_COMPLETED)
            if not _beat(submission.pk):
                log.info("submission %s is no longer generating (cancelled): calls stopped", submission.pk)
                return
            for future in done:
                _store(in_flight.pop(future), future.result())
    finally:
        pool.shutdown(wait=not in_flight, cancel_futures=True)


def generation_execute(*, submission_id: int) -> Submission | None:
    """Claim a generating submission, call its agent for every task, then pack and queue the evaluation.

    Idempotent: None when another worker holds it or it is done. The run it opens is queued, not sent: the
    Celery task sends it, an in-process caller runs it (pipeline.run_execute_inline).
    """
    submission = generation_claim(submission_id=submission_id)
    if submission is None:
        log.info("submission %s is not generating or is held by another worker: nothing to do", submission_id)
        return None
    workdir = _work_dir(submission)
    workdir.mkdir(parents=True, exist_ok=True)
    calls = _pending_calls(submission, workdir)
    endpoint = AgentEndpoint.objects.filter(system=submission.system).first()
    if calls and endpoint is None:
        _fail_all(calls, "the system's agent endpoint was removed before the call")
    elif calls:
        try:
            secret = secret_decrypt(endpoint.secret_encrypted)
        except SecretUnreadable as exc:
            _fail_all(calls, str(exc))
        else:
            _call_all(submission, calls, endpoint.url, secret, workdir)
    return generation_finish(submission=submission)


def _within_total_limits(calls: list[GenerationCall], workdir: Path) -> list[GenerationCall]:
    """Mark generated tasks failed once the repositories together pass the upload limits (by task name)."""
    limits = archive_limits()
    members = total = 0
    kept = []
    for call in calls:
        files = [p for p in (workdir / call.task.name).rglob("*") if p.is_file()]
        members += len(files)
        total += sum(p.stat().st_size for p in files)
        if members > limits.max_members or total > limits.max_bytes:
            GenerationCall.objects.filter(pk=call.pk).update(
                status=GenerationCall.Status.FAILED, reason="the generated repositories together are over the "
                f"submission limits ({limits.max_members} files, {limits.max_bytes} bytes)")
            shutil.rmtree(workdir / call.task.name, ignore_errors=True)
            continue
        kept.append(call)
    return kept


def generation_finish(*, submission: Submission) -> Submission:
    """Pack the generated folders into the submission's archive and open its evaluation run (queued, not sent).

    When the agent produced nothing at all, the submission fails instead (nothing to score; failed
    submissions do not count against the quota).
    """
    workdir = _work_dir(submission)
    if not Submission.objects.filter(pk=submission.pk, status=Submission.Status.GENERATING).exists():
        shutil.rmtree(workdir, ignore_errors=True)  # cancelled meanwhile: nothing to pack or score
        return Submission.objects.get(pk=submission.pk)
    calls = list(submission.generation_calls.select_related("task").order_by("task__name"))
    generated = _within_total_limits([c for c in calls if c.status == GenerationCall.Status.SUCCEEDED], workdir)
    failed = [c for c in submission.generation_calls.select_related("task").order_by("task__name")
              if c.status != GenerationCall.Status.SUCCEEDED]
    reasons = {c.task.name: f"the agent endpoint gave no repository: {c.reason or c.status}"[:500] for c in failed}
    if not generated:
        first = failed[0].reason if failed else "no task"
        generation_fail(submission_id=submission.pk, error=(
            f"The agent endpoint gave no usable repository for any of the {len(calls)} tasks, so nothing was scored "
            f"(first reason: {first}). Failed runs do not count against the quota.")[:2000])
        shutil.rmtree(workdir, ignore_errors=True)
        return Submission.objects.get(pk=submission.pk)
    folders = {c.task.name: workdir / c.task.name for c in generated}
    copied, sketches = _near_copy_of(submission, folders)
    if copied:
        generation_fail(submission_id=submission.pk, error=copied[:2000])
        shutil.rmtree(workdir, ignore_errors=True)
        return Submission.objects.get(pk=submission.pk)
    data = zip_folders(folders)
    with transaction.atomic():
        moved = submission_status_set(
            submission_id=submission.pk, status=Submission.Status.QUEUED, only_from=(Submission.Status.GENERATING,),
            generation_heartbeat=None, missing_reasons=reasons, task_sketches=sketches,
            archive_name=f"generated-{submission.pk}.zip", archive_bytes=len(data),
            archive_sha256=hashlib.sha256(data).hexdigest())
        if moved:
            submission.refresh_from_db()
            submission.archive.save(submission.archive_name, ContentFile(data), save=False)
            Submission.objects.filter(pk=submission.pk).update(archive=submission.archive.name)
            run_open(submission=submission)
    shutil.rmtree(workdir, ignore_errors=True)
    return Submission.objects.get(pk=submission.pk)


def _near_copy_of(submission: Submission, folders: dict[str, Path]) -> tuple[str, dict[str, list[int]]]:
    """(why the agent's answers are refused, '' when they are not; the sketch of each task folder): the near-copy
    check of an upload (submissions.services.near_copy_check, docs/scoring.md "What an upload is checked for")
    applied to what an agent endpoint answered, so an endpoint that returns the public reference solutions or
    another team's outputs is not scored either."""
    targets = near_copy_targets(system=submission.system, split=submission.split)
    collector = similarity.LineCollector(task_names=list(folders), wanted=near_copy_wanted(targets))
    similarity.collect_folders(collector, folders)
    try:
        near_copy_check(targets=targets, found=collector.found(""))
    except SubmissionError as exc:
        return (f"The agent endpoint's answers were not scored: {exc}"), {}
    return "", collector.sketches("")


def generation_fail(*, submission_id: int, error: str) -> bool:
    """Fail a submission that is still generating (the platform could not finish the generation)."""
    now = timezone.now()
    GenerationCall.objects.filter(submission_id=submission_id, status__in=[
        GenerationCall.Status.PENDING, GenerationCall.Status.RUNNING]).update(
        status=GenerationCall.Status.FAILED, reason="the generation was stopped", finished_at=now)
    return submission_status_set(submission_id=submission_id, status=Submission.Status.FAILED,
                                 only_from=(Submission.Status.GENERATING,), error=error, finished_at=now,
                                 generation_heartbeat=None)


def stale_generations(*, stale_after: float | None = None, waiting_lost=None) -> list[tuple[int, int]]:
    """Generating submissions nobody works on (no fresh heartbeat, created before the stale cutoff), as
    (submission id, task count) pairs for tasks.generations_recover. Their claim makes each run once.

    One that never started (no heartbeat) may still wait in the queue behind other work: it is included only when
    `waiting_lost()` (None: always) says the queue can no longer hold its message; one whose worker died always."""
    stale = stale_cutoff(stale_after)
    rows = list(Submission.objects.filter(status=Submission.Status.GENERATING, created_at__lt=stale).filter(
        Q(generation_heartbeat__isnull=True) | Q(generation_heartbeat__lt=stale)).values_list(
        "pk", "generation_heartbeat"))
    if any(beat is None for _, beat in rows) and waiting_lost is not None and not waiting_lost():
        rows = [(pk, beat) for pk, beat in rows if beat is not None]
    return [(pk, GenerationCall.objects.filter(submission_id=pk).count()) for pk, _ in rows]
