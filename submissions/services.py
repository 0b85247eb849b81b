"""Writes for submissions: checking and storing an uploaded archive (its evaluation is queued by the caller,
evaluation.services.submission_create), the daily quota, the upload limits."""
from __future__ import annotations

import functools
import hashlib
import logging
import secrets
import tempfile
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.utils import timezone

from core.engine import similarity
from core.engine.archive import ArchiveError, ArchiveLimits, ArchiveManifest, inspect_archive
from catalog.models import Split, System
from catalog.names import text_problem
from catalog.selectors import user_in_team
from catalog.services import task_reference_dir, team_lock, user_lock
from catalog.signals import board_changed

from .models import Submission
from .quota import QuotaStatus, account_quota_status, quota_status

log = logging.getLogger(__name__)

ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz", ".tar")


class SubmissionError(ValueError):
    """The upload was refused; the message says what was wrong and what to do. Nothing was stored."""


class QuotaExceeded(SubmissionError):
    """The team used its submissions of the last 24 hours (HTTP 429 in the API); `quota` is the team's
    submissions.quota.QuotaStatus (its `next_at` says when a slot comes back)."""

    def __init__(self, message: str, quota: QuotaStatus | None = None) -> None:
        super().__init__(message)
        self.quota = quota


class SubmissionStateError(SubmissionError):
    """The submission is not in a state that allows the action (e.g. cancelling a finished one: HTTP 409)."""


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


def _inspect(upload: UploadedFile, task_names: list[str],
             sources: similarity.LineCollector) -> tuple[ArchiveManifest, str]:
    """Check the archive (nothing is extracted here; its files are read once, within the upload limits, for the
    manifest's content digest and through `sources`, the near-copy check's collector) and return it with the sha256
    of the upload."""
    digest = hashlib.sha256()
    with tempfile.NamedTemporaryFile(suffix=".upload") as tmp:
        for chunk in upload.chunks():
            digest.update(chunk)
            tmp.write(chunk)
        tmp.flush()
        try:
            manifest = inspect_archive(Path(tmp.name), limits=archive_limits(), task_names=task_names,
                                       content_sha256=True, sources=sources)
        except ArchiveError as exc:
            raise SubmissionError(str(exc)) from exc
    upload.seek(0)
    return manifest, digest.hexdigest()


class MissingTasks(SubmissionError):
    """The archive lacks some tasks of the split and the uploader did not agree to queue it anyway (the web form
    asks first; the API queues it with a warning)."""


def _check_layout(manifest: ArchiveManifest, task_names: list[str]) -> None:
    present, _, _ = manifest.matched(task_names)
    if present:
        return
    found = ", ".join(repr(f) for f in manifest.folders[:8]) or "no folder"
    by_lower = {n.lower(): n for n in task_names}
    cased = [(f, by_lower[f.lower()]) for f in manifest.folders if f.lower() in by_lower]
    if cased:
        hint = " " + "; ".join(f"{f!r} is not {t!r}" for f, t in cased[:5]) + (
            ": task folder names are case-sensitive, rename the folder to the task's exact name.")
    elif manifest.prefix and any(f.lower() not in by_lower for f in manifest.folders):
        hint = (" The archive looks nested one level too deep: put the task folders at its root "
                "(or inside a single wrapping folder).")
    else:
        hint = ""
    raise SubmissionError(f"No folder of the archive is named like a task of this split (found: {found}; "
                          f"expected names such as {', '.join(task_names[:3])}).{hint}")


def missing_tasks_notice(missing: list[str]) -> str:
    """The warning an upload without some of the split's tasks gets: "N tasks missing (each scores 0): A, B, ..."
    (at most 10 names)."""
    shown = ", ".join(missing[:10]) + (f" and {len(missing) - 10} more" if len(missing) > 10 else "")
    return f"{len(missing)} task{'s' if len(missing) != 1 else ''} missing (each scores 0): {shown}"


def duplicate_check(*, system: System, split: Split, sha256: str, content_sha256: str = "",
                    hold: bool = False) -> None:
    """Refuse an archive that another team already submitted on the same split (any version of the benchmark) in
    a submission that was not failed or cancelled: a board row must be its team's own output (issue 12, feature
    10). Byte-identical (same `sha256` of the archive file) is checked first; then the same files packed again
    (same `content_sha256`, core.engine.archive.content_digest of the unpacked repository: another compression
    level, zip or tar.gz, other timestamps or order, a wrapping folder), when given. The same system may be given
    its archive again (a re-run); another system of the same team may not while the earlier submission stands (not
    withdrawn): one output would be ranked twice, under two names (the fresh-user pass of issue 13). Raises
    SubmissionError naming the earlier submission when it is public or the team's own (another team's private one
    is not named).

    `hold=True` is for the transaction that then inserts the submission (it must be inside one): the split's rows
    (every version's split of that name, `_split_hold`) are locked first, so two teams uploading the same archive
    at the same moment are checked one after the other and the second sees the first's submission. The lock is
    held until the transaction ends."""
    if hold:
        _split_hold(split)
    others = (Submission.objects.filter(split__benchmark__name=split.benchmark.name, split__name=split.name)
              .exclude(system_id=system.pk)
              .exclude(system__team_id=system.team_id, withdrawn_at__isnull=False)
              .exclude(status__in=(Submission.Status.FAILED, Submission.Status.CANCELLED))
              .select_related("system").order_by("created_at"))
    earlier = others.filter(archive_sha256=sha256).first()
    same = f"byte-identical (sha256 {sha256[:12]}…) to"
    if earlier is None and content_sha256:
        earlier = others.filter(content_sha256=content_sha256).first()
        same = (f"the same files (content sha256 {content_sha256[:12]}…: the same paths and contents, packed "
                "again) as")
    if earlier is None:
        return
    status = earlier.get_status_display().lower()
    if earlier.system.team_id == system.team_id:
        raise SubmissionError(f"This archive is {same} submission #{earlier.pk} of your team's system "
                              f"{earlier.system.name}, already {status} on {split}. The board ranks each output "
                              f"once, under one system: submit it for {earlier.system.name}, or withdraw #"
                              f"{earlier.pk} first to rank it under {system.name}.")
    whose = (f"submission #{earlier.pk} of {earlier.system.name}" if earlier.is_public
             else "a private submission of another team")
    raise SubmissionError(f"This archive is {same} {whose}, already {status} on {split}. The board ranks each "
                          "team's own output once: upload the repositories your system generated.")


@functools.lru_cache(maxsize=16)
def _reference_sketches(split_id: int, benchmark_version: str) -> dict[str, list[int]]:
    """{task: the sketch of its reference solution's lines (core.engine.similarity)} for the tasks of the split that
    ship one; cached per split and benchmark version."""
    folders = {task.name: task_reference_dir(task) for task in Split.objects.get(pk=split_id).tasks.all()}
    return similarity.folder_sketches({name: folder for name, folder in folders.items()
                                       if folder is not None and folder.is_dir()})


#: What a near-copy is compared with: (how the refusal names it, {task: sketch}).
NearCopyTarget = tuple[str, dict[str, list[int]]]


def near_copy_targets(*, system: System, split: Split) -> list[NearCopyTarget]:
    """What an upload for `system` on `split` may not hold nearly whole (`near_copy_check`), in the order it is
    checked: the split's reference solutions (the oracle, public in the project's repository), then the same tasks
    of every other team's submission on a split of that name (any version of the benchmark) that was not failed or
    cancelled (withdrawn ones included: they were that team's output), oldest first. Another team's private or
    withdrawn submission is named "a private submission of another team"."""
    targets = [("the platform's reference solution", _reference_sketches(split.pk, split.benchmark.version))]
    others = (Submission.objects.filter(split__benchmark__name=split.benchmark.name, split__name=split.name)
              .exclude(system__team_id=system.team_id)
              .exclude(status__in=(Submission.Status.FAILED, Submission.Status.CANCELLED))
              .exclude(task_sketches={}).select_related("system").order_by("created_at"))
    for other in others.iterator(chunk_size=50):
        whose = (f"submission #{other.pk} of {other.system.name}" if other.is_public and not other.withdrawn_at
                 else "a private submission of another team")
        targets.append((whose, other.task_sketches))
    return targets


def near_copy_wanted(targets: list[NearCopyTarget]) -> dict[str, set[int]]:
    """{task: every hash of the targets' sketches of it}: the only line hashes of an upload the check needs."""
    wanted: dict[str, set[int]] = {}
    for _, sketches in targets:
        for task, sketched in sketches.items():
            wanted.setdefault(task, set()).update(sketched)
    return wanted


def near_copy_check(*, targets: list[NearCopyTarget], found: dict[str, set[int]]) -> None:
    """Refuse an upload whose task folders hold one of `targets` (`near_copy_targets`) nearly whole
    (core.engine.similarity: at least NEAR_COPY of its sketched lines). `found`: {task: the wanted line hashes the
    upload's folder holds} (similarity.LineCollector.found). What `duplicate_check` leaves: a copy with one file
    added to each task folder got the reference solutions ranked #1 on Verified (break-it pass 12 of issue 13).
    Raises SubmissionError naming the tasks and the target."""
    for whose, sketches in targets:
        copies = similarity.near_copies(sketches, found)
        if copies:
            own = "system's" if whose.startswith("the platform's") else "team's"
            raise SubmissionError(f"The archive's {_tasks_shown(copies)} {whose} nearly whole (a share of its "
                                  f"lines). The board ranks each {own} own output: upload the repositories your "
                                  "system generated.")


def _tasks_shown(copies: dict[str, float]) -> str:
    """"task 'Blog' (97%) holds" or "tasks 'Blog' (97%), 'eve' (100%) and 3 more hold"."""
    shown = [f"{task!r} ({share:.0%})" for task, share in sorted(copies.items())]
    listed = ", ".join(shown[:5]) + (f" and {len(shown) - 5} more" if len(shown) > 5 else "")
    return f"tasks {listed} hold" if len(shown) > 1 else f"task {listed} holds"


def _split_hold(split: Split) -> None:
    """Lock the rows of every split that `duplicate_check` compares with (the benchmark's versions' splits of this
    name), in id order: SELECT ... FOR UPDATE on PostgreSQL; on SQLite the immediate transaction (settings
    "transaction_mode": "IMMEDIATE") already holds the database's write lock, and this selects without locking."""
    list(Split.objects.select_for_update(of=("self",)).filter(benchmark__name=split.benchmark.name, name=split.name)
         .order_by("pk").values_list("pk", flat=True))


def quota_check(*, system: System, user=None, hold: bool = False) -> None:
    """Raise QuotaExceeded when the system's team used its submissions of the last 24 hours (uploads and
    endpoint runs alike, by any member; failed and cancelled ones do not count: submissions.quota).

    `hold=True` is for the transaction that then inserts the submission (it must be inside one): the team's row
    is locked first (SELECT ... FOR UPDATE on PostgreSQL; on SQLite the immediate transaction already holds the
    database's write lock), so two checks for one team run one after the other and the second counts the first's
    submission: simultaneous uploads at the limit cannot both pass. The lock is held until the transaction ends;
    under it, a system deleted at the same moment (submissions.systems.system_delete holds the same lock) raises
    SubmissionError (the insert would have failed its foreign key: a 500, the eighth break-it pass of issue 13).
    `user` (who submits) is held to the same limit across all the account's teams (`account_quota_status`), under
    a lock on the account's row when `hold`.
    """
    if hold:
        team_lock(system.team_id)
        if not System.objects.filter(pk=system.pk).exists():  # deleted under the same lock (system_delete)
            raise SubmissionError(f"The system {system.name} was deleted while the submission was being made: "
                                  "nothing was queued. Choose another system, or create it again.")
    quota = quota_status(team=system.team)
    if quota.remaining <= 0:
        raise QuotaExceeded(f"Your team has used its {quota.limit} submissions of the last 24 hours (failed and "
                            f"cancelled ones do not count): {quota.sentence()}.", quota)
    if user is None or not getattr(user, "is_authenticated", False):
        return
    if hold:
        user_lock(user)  # two uploads of one account to two teams at once count each other
    mine = account_quota_status(user=user)
    if mine.remaining <= 0:
        raise QuotaExceeded(f"Your account has made its {mine.limit} submissions of the last 24 hours, across all "
                            f"its teams (failed and cancelled ones do not count): {mine.sentence()}.", mine)


#: The longest note a team may give a submission (shown on its public page and in the history chart's hover text).
NOTE_MAX_LENGTH = 300


def note_check(note: str) -> None:
    """Refuse a submission's note the public page could not show as typed: an invisible or control character (a
    right-to-left override reordered "verified by the authors" into a note, the fourth break-it pass of issue 13:
    catalog.names.text_problem, the rule of every text on the board) or more than NOTE_MAX_LENGTH characters.
    Raises SubmissionError saying which."""
    problem = text_problem(note, what="The note")
    if problem is None and len(note) > NOTE_MAX_LENGTH:
        problem = f"The note has {len(note)} characters; it may have at most {NOTE_MAX_LENGTH}."
    if problem:
        raise SubmissionError(problem)


def submission_store(*, system: System, split: Split, upload: UploadedFile, user: User | None, note: str = "",
                     is_public: bool = True, on_stored: Callable[[Submission], object] | None = None,
                     allow_missing: bool = True) -> Submission:
    """Check an uploaded archive and store it with its submission row; `on_stored(submission)` runs in the same
    transaction (evaluation.services.submission_create opens the run there), and when it raises nothing is kept,
    the archive file included.

    Raises SubmissionError (nothing stored) when the split does not take uploads (not public), the file is
    not a usable archive, is too big, holds unsafe paths or names too long to unpack, matches no task of the
    split, is byte-identical to another team's submission on the split or holds the same files
    (`duplicate_check`), holds a task's reference solution or another team's task folder nearly whole
    (`near_copy_check`; not for the platform's own seeds, which have no `user`), the note is refused
    (`note_check`), or the team's daily quota is used up; MissingTasks when tasks of the split are missing and not
    `allow_missing`. With missing
    tasks allowed, the submission's warnings start with `missing_tasks_notice` and its `missing_reasons` name each
    missing task (its status page shows them `missing` from the start, not pending).
    """
    note_check(note)
    uploads_allowed_check(split=split)
    _check_name_and_size(upload)
    task_names = list(split.tasks.order_by("name").values_list("name", flat=True))
    # the platform's own seeds (the demo systems, the oracle: no user) are not checked, but sketched
    targets = near_copy_targets(system=system, split=split) if user is not None else []
    collector = similarity.LineCollector(task_names=task_names, wanted=near_copy_wanted(targets))
    manifest, sha256 = _inspect(upload, task_names, collector)
    _check_layout(manifest, task_names)
    _, missing, _ = manifest.matched(task_names)
    if missing and not allow_missing:
        raise MissingTasks(f"{missing_tasks_notice(missing)}. Nothing was queued: add the missing folders, or "
                           "tick \"Queue it even if tasks are missing\" and choose the archive again.")
    duplicate_check(system=system, split=split, sha256=sha256, content_sha256=manifest.content_sha256)
    near_copy_check(targets=targets, found=collector.found(manifest.prefix))
    quota_check(system=system, user=user)  # all refused early; checked again under their locks below
    submission = Submission(system=system, split=split, submitted_by=user, token=secrets.token_hex(12),
                            archive_name=Path(upload.name).name[:255], archive_bytes=upload.size,
                            archive_sha256=sha256, content_sha256=manifest.content_sha256, note=note,
                            is_public=is_public,
                            layout_warnings=([missing_tasks_notice(missing)] if missing else [])
                            + manifest.layout_warnings(task_names),
                            missing_reasons={name: f"the archive has no folder named {name!r}" for name in missing},
                            task_sketches=collector.sketches(manifest.prefix))
    try:
        with transaction.atomic():
            quota_check(system=system, user=user, hold=True)  # count and insert in one transaction, one team at a time
            submission.archive.save(upload.name, upload, save=False)
            duplicate_check(system=system, split=split, sha256=sha256, content_sha256=manifest.content_sha256,
                            hold=True)  # again, one upload to the split at a time: the same archive at once
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


def submission_archive_fetch(*, submission: Submission, folder: Path) -> Path:
    """Copy the submission's archive from its storage (the web host's disk or the object store, whichever
    STORAGES["default"] is) into a new file in `folder`, 1 MiB at a time, and return its path: what a worker on
    another host unpacks. The caller deletes the file. Raises FileNotFoundError when the storage has no archive,
    ArchiveError when the copy's sha256 is not the one recorded at upload (the stored bytes changed)."""
    folder.mkdir(parents=True, exist_ok=True)
    suffix = ".zip" if submission.archive.name.endswith(".zip") else ".tar.gz"
    digest = hashlib.sha256()
    handle = tempfile.NamedTemporaryFile(dir=folder, prefix=f"archive-{submission.pk}-", suffix=suffix, delete=False)
    try:
        with handle, submission.archive.storage.open(submission.archive.name, "rb") as src:
            while chunk := src.read(1024 * 1024):
                digest.update(chunk)
                handle.write(chunk)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise
    if submission.archive_sha256 and digest.hexdigest() != submission.archive_sha256:
        Path(handle.name).unlink(missing_ok=True)
        raise ArchiveError(f"the stored archive is not the one uploaded (sha256 {digest.hexdigest()[:12]}…, "
                           f"uploaded {submission.archive_sha256[:12]}…)")
    return Path(handle.name)


def archive_limits() -> ArchiveLimits:
    """Upload limits from settings (SUBMISSION_MAX_MEMBERS, _EXTRACTED_BYTES, _RATIO)."""
    return ArchiveLimits(max_members=settings.SUBMISSION_MAX_MEMBERS,
                         max_bytes=settings.SUBMISSION_MAX_EXTRACTED_BYTES, max_ratio=settings.SUBMISSION_MAX_RATIO)


def withdraw_permission_check(*, submission: Submission, user: User) -> None:
    """Raise PermissionError unless `user` may withdraw `submission` (a member of its team, or an admin): checked
    before anything else about the request, so another team is told 403 whatever it sent."""
    if not (user_in_team(user=user, team=submission.system.team) or getattr(user, "is_staff", False)):
        raise PermissionError("only the submission's team can withdraw it")


def submission_withdraw(*, submission: Submission, user: User, reason: str) -> Submission:
    """Withdraw a finished public submission from the public board, for a member of its team or an admin. It stays
    stored (private: its team and the admins still see it) with who withdrew it, when and why; the board then
    ranks the system by its next latest public run, if any.

    Raises PermissionError for anyone else, SubmissionError when `reason` is blank, over 500 characters or holds
    a character no text of the board may hold (catalog.names.text_problem: a reason of a right-to-left override and
    a braille blank was accepted and written raw into the log, break-it pass 12 of issue 13), and
    SubmissionStateError when the submission is not finished, not public or already withdrawn.
    """
    withdraw_permission_check(submission=submission, user=user)
    reason = (reason or "").strip()
    problem = text_problem(reason, what="The reason", multiline=True)
    if problem:
        raise SubmissionError(problem)
    if not reason:
        raise SubmissionError("Say why the submission is withdrawn (kept with it for the admins).")
    if len(reason) > 500:
        raise SubmissionError(f"The reason is {len(reason)} characters; at most 500.")
    changed = Submission.objects.filter(pk=submission.pk, status=Submission.Status.FINISHED, is_public=True,
                                        withdrawn_at__isnull=True).update(
        is_public=False, withdrawn_at=timezone.now(), withdrawn_by=user, withdrawn_reason=reason)
    submission.refresh_from_db()
    if not changed:
        state = ("already withdrawn" if submission.is_withdrawn else "private" if not submission.is_public
                 else submission.status)
        raise SubmissionStateError(f"Submission {submission.pk} is {state}: only a finished public submission can "
                                   "be withdrawn from the board.")
    board_changed.send(sender=Submission, submission_id=submission.pk)  # a bulk UPDATE: the board's cache is stale
    log.info("submission %s withdrawn by %s: %s", submission.pk, user.username, reason)
    return submission
