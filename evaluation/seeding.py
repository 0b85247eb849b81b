"""Seeding systems whose submissions the platform itself provides (the demo systems, the reference solutions).

`seed_submission` is idempotent per (system, split): a system that already has a finished or pending submission on
the split is left alone, so `make run` can call the seed commands every time.
"""
from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile

from evaluation.models import EvaluationRun
from evaluation.pipeline import run_execute_inline
from evaluation.tasks import run_prepare
from catalog.models import Split, System
from submissions.models import Submission
from evaluation.services import submission_create

PENDING_OR_DONE = (Submission.Status.QUEUED, Submission.Status.RUNNING, Submission.Status.FINISHED)


def seed_submission(*, system: System, split: Split, data: bytes, filename: str, on_worker: bool,
                    note: str = "seed") -> EvaluationRun | None:
    """Submit the zip `data` for `system` on `split` unless it already has a queued, running or finished submission
    there. With `on_worker` the run is queued for the Celery worker (returned queued); otherwise it is evaluated in
    this process and returned finished. Returns None when nothing was submitted. Raises SubmissionError as
    submission_create does."""
    if Submission.objects.filter(system=system, split=split, status__in=PENDING_OR_DONE).exists():
        return None
    upload = SimpleUploadedFile(filename, data, content_type="application/zip")
    submission = submission_create(system=system, split=split, upload=upload, user=None, note=note, enqueue=False)
    run = submission.runs.get()
    if not on_worker:
        return run_execute_inline(run_id=run.pk)
    # The platform's own work: on the background queue, never ahead of a team's upload. Unpack here and queue one
    # job per task now, so the board's seeds come before anything queued after them there (the reference checks):
    # the worker takes jobs first in, first out.
    run.background = True
    run.save(update_fields=["background"])
    run_prepare(run.pk)
    return run


def describe_run(system: System, run: EvaluationRun | None) -> str:
    """One line for the seed commands: the run's state, and its overall scores once finished."""
    if run is None:
        return f"{system.name}: already submitted"
    if not run.scores:
        return f"{system.name}: {run.status} (run {run.pk})"
    overall = run.scores.overall
    return (f"{system.name}: {run.status}, Pass@1 {100 * overall['pass_at_1']:.1f}%, "
            f"AC {100 * (overall.get('ac') or 0):.1f}%, DSR {100 * overall['dsr']:.1f}%")
