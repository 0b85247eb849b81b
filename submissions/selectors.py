"""Reads for submissions, with visibility rules: private submissions are seen by their team only."""
from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet

from catalog.selectors import user_in_team

from .models import Submission


def submissions_visible(*, user: User | AnonymousUser) -> QuerySet[Submission]:
    """Public submissions plus the user's teams' private ones, newest first."""
    qs = Submission.objects.select_related("system__team", "split__benchmark")
    if user.is_authenticated:
        return qs.filter(Q(is_public=True) | Q(system__team__members=user)).distinct()
    return qs.filter(is_public=True)


def submission_get(*, pk: int, user: User | AnonymousUser) -> Submission | None:
    """The submission if the user may see it, else None."""
    return submissions_visible(user=user).filter(pk=pk).first()


@dataclass(frozen=True)
class Reruns:
    """The earlier submissions of a submission's system that held the same files: `latest` the latest one the
    viewer may see (None: none), `earlier` how many there were in all and `withdrawn` how many of those were
    withdrawn from the board (cancelled and failed ones are not counted)."""

    latest: Submission | None
    earlier: int
    withdrawn: int


def submission_reruns(*, submission: Submission, user: User | AnonymousUser) -> Reruns | None:
    """The submission's re-run history (`Reruns`), or None when it repeats no earlier submission: the same system on
    a split of the same name, the same archive sha256 or the same content digest (`submissions.services.
    duplicate_check` lets a system be given its archive again, a re-run). A re-run is scored on its own; its page
    says which submission it repeats and how often the files were run before, withdrawn runs included, so two rows
    of one output are not read as two outputs and the best of several runs is not taken for a single run (break-it
    passes 11 and 12 of issue 13: a second upload with nothing saying so; the first run withdrawn and the line
    gone)."""
    if not submission.archive_sha256 and not submission.content_sha256:
        return None  # an endpoint submission still generating has no archive yet
    same = Q(archive_sha256=submission.archive_sha256)
    if submission.content_sha256:
        same |= Q(content_sha256=submission.content_sha256)
    earlier = (Submission.objects.filter(same, system_id=submission.system_id, split__name=submission.split.name,
                                         created_at__lt=submission.created_at)
               .exclude(status__in=(Submission.Status.FAILED, Submission.Status.CANCELLED)))
    count = earlier.count()
    if not count:
        return None
    latest = submissions_visible(user=user).filter(pk__in=earlier.values("pk")).order_by("-created_at", "-pk").first()
    return Reruns(latest=latest, earlier=count, withdrawn=earlier.filter(withdrawn_at__isnull=False).count())



def submission_archive(*, submission: Submission, user: User | AnonymousUser):
    """(open binary file, download name) of the submission's archive for a member of its team.

    Raises PermissionError for anyone else and FileNotFoundError while there is no archive yet
    (an endpoint submission still generating, or one whose agent gave nothing).
    """
    if not user_in_team(user=user, team=submission.system.team):
        raise PermissionError("only the submission's team can download its archive")
    if not submission.archive.name or not submission.archive.storage.exists(submission.archive.name):
        raise FileNotFoundError("this submission has no archive (yet)")
    suffix = ".zip" if submission.archive.name.endswith(".zip") else ".tar.gz"
    return submission.archive.open("rb"), f"submission-{submission.pk}{suffix}"
