"""What users and admins start: an upload's evaluation, an endpoint run, a rescore. Each stores its rows and sends
its Celery job after commit (evaluation.tasks); the work itself is in evaluation.pipeline and evaluation.generation.
"""
from __future__ import annotations

import logging

from django.contrib.auth.models import AnonymousUser, User
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction

from catalog.models import Split, System
from catalog.selectors import user_in_team
from submissions.models import Submission
from submissions.services import SubmissionStateError, submission_store

from . import generation, pipeline
from .models import EvaluationRun
from .tasks import generation_enqueue, run_send

log = logging.getLogger(__name__)


def run_create(*, submission: Submission, split: Split | None = None, enqueue: bool = True,
               background: bool = False) -> EvaluationRun:
    """Open a queued run of `submission` on `split` (default: its own; pipeline.run_open) and, with `enqueue`,
    send `run_prepare` after commit; without, the caller runs it (`pipeline.run_execute_inline`). `background`:
    the platform's own run (a seed, a re-score), evaluated on the background queue, after the teams' uploads."""
    run = pipeline.run_open(submission=submission, split=split, background=background)
    if enqueue:
        run_send(run_id=run.pk, background=background, on_commit=True)
    return run


def submission_create(*, system: System, split: Split, upload: UploadedFile, user: User | None, note: str = "",
                      is_public: bool = True, enqueue: bool = True, allow_missing: bool = True) -> Submission:
    """Check and store an uploaded archive (submissions.services.submission_store) and queue its evaluation, in one
    transaction. Raises SubmissionError (nothing stored) as submission_store does (MissingTasks when tasks are
    missing and not `allow_missing`); `enqueue=False` leaves the queued run for the caller
    (`pipeline.run_execute_inline`)."""
    return submission_store(system=system, split=split, upload=upload, user=user, note=note, is_public=is_public,
                            on_stored=lambda submission: run_create(submission=submission, enqueue=enqueue),
                            allow_missing=allow_missing)


def generation_start(*, system: System, split: Split, user: User | AnonymousUser | None, note: str = "",
                     is_public: bool = True, enqueue: bool = True) -> Submission:
    """Start an endpoint run (generation.generation_open) and send `submission_generate` after commit (unless
    `enqueue` is False). Raises EndpointError and QuotaExceeded as generation_open does."""
    submission = generation.generation_open(system=system, split=split, user=user, note=note, is_public=is_public)
    if enqueue:
        count = submission.generation_calls.count()
        transaction.on_commit(lambda: generation_enqueue(submission_id=submission.pk, task_count=count))
    return submission


def submission_rescore(*, submission: Submission) -> EvaluationRun:
    """Score a stored submission again on the current version of its benchmark's same-named split, in the
    background (a new run on the background queue; the older runs and their results stay). Does not count against
    the quota.

    Raises Split.DoesNotExist when the current version has no split of that name.
    """
    current = Split.objects.get(benchmark__name=submission.split.benchmark.name, benchmark__is_current=True,
                                name=submission.split.name)
    with transaction.atomic():
        return run_create(submission=submission, split=current, background=True)


def submission_cancel(*, submission: Submission, user: User | AnonymousUser) -> Submission:
    """Cancel a generating, queued or running submission for a member of its team (or an admin): its runs stop
    (workers tear the task sandboxes down within seconds, pipeline.run_cancel) and it no longer counts against
    the team's quota. Returns the submission as stored now.

    Raises PermissionError for anyone else and SubmissionStateError when it has already ended (finished,
    failed or cancelled: nothing changes).
    """
    if not (user_in_team(user=user, team=submission.system.team) or getattr(user, "is_staff", False)):
        raise PermissionError("only the submission's team can cancel it")
    if not pipeline.run_cancel(submission=submission, user=user):
        submission.refresh_from_db(fields=["status"])
        raise SubmissionStateError(f"Submission {submission.pk} is already {submission.status}: only a generating, "
                                   "queued or running submission can be cancelled.")
    log.info("submission %s cancelled by %s", submission.pk, getattr(user, "username", "?"))
    submission.refresh_from_db()
    return submission
