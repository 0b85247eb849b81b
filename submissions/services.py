"""Writes for submissions: checking and storing an uploaded archive (its evaluation is queued by the caller,
evaluation.services.submission_create), the daily quota, the upload limits."""
from __future__ import annotations

import hashlib
import secrets
import tempfile
from datetime import timedelta
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.utils import timezone

from core.engine.archive import ArchiveError, ArchiveLimits, ArchiveManifest, inspect_archive
from catalog.models import Split, System

from .models import Submission

ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz", ".tar")


class SubmissionError(ValueError):
    """The upload was refused; the message says what was wrong and what to do. Nothing was stored."""


class QuotaExceeded(SubmissionError):
    """The team used its submissions of the last 24 hours (HTTP 429 in the API)."""


def uploads_allowed_check(*, split: Split) -> None:
    """Raise SubmissionError unless the split takes archive uploads (only `public` splits do)."""
    if split.visibility == Split.Visibility.PUBLIC:
        return
    if split.visibility == Split.Visibility.ENDPOINT_ONLY:
        raise SubmissionError(f"The split {split} takes only agent-endpoint submissions: its READMEs are not "
                              "published. Register your agent's URL on your system's page and use "
                              "\"Run on split\" (API: POST /api/v1/systems/<id>/runs/).")
    raise SubmissionError(f"The split {split} is hidden and takes no uploads.")


def _check_name_and_size(upload: UploadedFile) -> None:
    if not upload.name.lower().endswith(ARCHIVE_SUFFIXES):
        raise SubmissionError(f"{upload.name!r} is not an archive: upload a .zip or .tar.gz with one folder per task.")
    if upload.size > settings.SUBMISSION_MAX_UPLOAD_BYTES:
        raise SubmissionError(f"The archive is {upload.size} bytes; the limit is "
                              f"{settings.SUBMISSION_MAX_UPLOAD_BYTES} bytes. Remove build outputs and dependencies.")
    if upload.size == 0:
        raise SubmissionError("The uploaded file is empty.")


def _inspect(upload: UploadedFile, task_names: list[str]) -> tuple[ArchiveManifest, str]:
    """Read the member list (nothing is extracted here) and the sha256 of the upload."""
    digest = hashlib.sha256()
    with tempfile.NamedTemporaryFile(suffix=".upload") as tmp:
        for chunk in upload.chunks():
            digest.update(chunk)
            tmp.write(chunk)
        tmp.flush()
        try:
            manifest = inspect_archive(Path(tmp.name), limits=archive_limits(), task_names=task_names)
        except ArchiveError as exc:
            raise SubmissionError(str(exc)) from exc
    upload.seek(0)
    return manifest, digest.hexdigest()


def _check_layout(manifest: ArchiveManifest, task_names: list[str]) -> None:
    present, _, _ = manifest.matched(task_names)
    if present:
        return
    found = ", ".join(repr(f) for f in manifest.folders[:8])
    lower = {n.lower() for n in task_names}
    if any(f.lower() in lower for f in manifest.folders):
        hint = " Task folder names are case-sensitive."
    elif manifest.prefix and any(f not in lower for f in manifest.folders):
        hint = (" The archive looks nested one level too deep: put the task folders at its root "
                "(or inside a single wrapping folder).")
    else:
        hint = ""
    raise SubmissionError(f"No folder of the archive is named like a task of this split (found: {found}; "
                          f"expected names such as {', '.join(task_names[:3])}).{hint}")


def quota_check(*, system: System) -> None:
    """Raise QuotaExceeded when the system's team used its submissions of the last 24 hours (uploads and
    endpoint runs alike; failed evaluations do not count)."""
    since = timezone.now() - timedelta(days=1)
    used = Submission.objects.filter(system__team=system.team, created_at__gte=since).exclude(
        status=Submission.Status.FAILED).count()
    if used >= settings.SUBMISSION_DAILY_QUOTA:
        raise QuotaExceeded(f"Your team has used its {settings.SUBMISSION_DAILY_QUOTA} submissions of the last "
                              "24 hours; failed evaluations do not count. Try again later.")


def submission_store(*, system: System, split: Split, upload: UploadedFile, user: User | None, note: str = "",
                     is_public: bool = True, on_stored: Callable[[Submission], object] | None = None) -> Submission:
    """Check an uploaded archive and store it with its submission row; `on_stored(submission)` runs in the same
    transaction (evaluation.services.submission_create opens the run there), and when it raises nothing is kept,
    the archive file included.

    Raises SubmissionError (nothing stored) when the split does not take uploads (not public), the file is
    not a usable archive, is too big, holds unsafe paths, matches no task of the split, or the team's daily
    quota is used up.
    """
    uploads_allowed_check(split=split)
    _check_name_and_size(upload)
    task_names = list(split.tasks.order_by("name").values_list("name", flat=True))
    manifest, sha256 = _inspect(upload, task_names)
    _check_layout(manifest, task_names)
    quota_check(system=system)
    submission = Submission(system=system, split=split, submitted_by=user, token=secrets.token_hex(12),
                            archive_name=Path(upload.name).name[:255], archive_bytes=upload.size,
                            archive_sha256=sha256, note=note[:300], is_public=is_public,
                            layout_warnings=manifest.layout_warnings(task_names))
    try:
        with transaction.atomic():
            submission.archive.save(upload.name, upload, save=False)
            submission.save()
            if on_stored:
                on_stored(submission)
    except Exception:
        if submission.archive.name:
            submission.archive.storage.delete(submission.archive.name)
        raise
    return submission


def upload_size_check(*, content_length: str | int | None) -> None:
    """Refuse a request body over the upload limit before Django reads (and stores) any of it.

    Raises SubmissionError. The multipart overhead allowance is 64 KiB.
    """
    try:
        length = int(content_length or 0)
    except (TypeError, ValueError):
        return
    if length > settings.SUBMISSION_MAX_UPLOAD_BYTES + 64 * 1024:
        raise SubmissionError(f"The upload is {length} bytes; the limit is {settings.SUBMISSION_MAX_UPLOAD_BYTES} "
                              "bytes. Remove build outputs and dependencies from the archive.")


def archive_limits() -> ArchiveLimits:
    """Upload limits from settings (SUBMISSION_MAX_MEMBERS, _EXTRACTED_BYTES, _RATIO)."""
    return ArchiveLimits(max_members=settings.SUBMISSION_MAX_MEMBERS,
                         max_bytes=settings.SUBMISSION_MAX_EXTRACTED_BYTES, max_ratio=settings.SUBMISSION_MAX_RATIO)
