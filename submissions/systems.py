"""Editing and deleting a system, which depends on its submissions: a system whose results were on the public
board keeps what the board showed.

A *ranked* submission is a finished one that is public or was withdrawn from the board (it was ranked once; its
withdrawal is kept for the admins). A system with one may change only its URL and description; one without may
change every field, or be deleted (with its submissions and their archives) once none of them is still
generating, queued or running.
"""
from __future__ import annotations

import logging

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from catalog.models import System
from catalog.selectors import user_in_team
from catalog.services import system_save, system_type_problem, team_lock

from .models import ACTIVE_STATUSES, UNCOUNTED_STATUSES, SpentQuota, Submission
from .quota import WINDOW
from .services import SubmissionStateError

log = logging.getLogger(__name__)

#: Fields a system with a ranked submission may still change (links and prose, not what it is).
ALWAYS_EDITABLE = ("url", "source_url", "description")
#: Every field a team may edit.
EDITABLE = ("name", "agent_framework", "base_model", "type", *ALWAYS_EDITABLE)


def system_has_ranked_submission(*, system: System) -> bool:
    """True when a finished submission of the system is public or was withdrawn (see module docstring)."""
    return Submission.objects.filter(system=system, status=Submission.Status.FINISHED).filter(
        Q(is_public=True) | Q(withdrawn_at__isnull=False)).exists()


def system_member_check(system: System, user: User) -> None:
    """Raise PermissionError unless `user` is a member of the system's team or an admin (checked before anything
    about a request to change the system, so another team is told 403 whatever it sent)."""
    if not (user_in_team(user=user, team=system.team) or getattr(user, "is_staff", False)):
        raise PermissionError(f"the system {system.name!r} belongs to another team")


def system_update(*, system: System, user: User, **fields) -> System:
    """Change the given fields (of EDITABLE) of a system of the user's team.

    Raises PermissionError for another team's system, and django ValidationError ({field: message}) for a bad
    value (a name another system took at the same moment too: catalog.services.system_save), an unknown field, a
    field other than URL and description of a system with a ranked submission, or a switch to a type only staff
    may give (catalog.services.system_type_problem: the oracle's `reference`).
    """
    system_member_check(system, user)
    unknown = set(fields) - set(EDITABLE)
    if unknown:
        raise ValidationError({name: "This field cannot be changed." for name in sorted(unknown)})
    if "type" in fields:
        problem = system_type_problem(user=user, type=fields["type"], current=system.type)
        if problem:
            raise ValidationError({"type": problem})
    changed = {k: v for k, v in fields.items() if getattr(system, k) != v}
    locked = [k for k in changed if k not in ALWAYS_EDITABLE]
    if locked and system_has_ranked_submission(system=system):
        raise ValidationError({k: f"{system.name} has a ranked submission, so its {k.replace('_', ' ')} stays as "
                                  "the board showed it; only the URLs and the description can change. Withdraw "
                                  "its ranked submissions first, or create a new system."
                               for k in locked})
    for name, value in changed.items():
        setattr(system, name, value)
    system_save(system=system)
    if changed:
        log.info("system %s edited by %s: %s", system.pk, user.username, ", ".join(sorted(changed)))
    return system


def system_delete(*, system: System, user: User) -> None:
    """Delete a system of the user's team with its submissions and their archives. The daily-quota slots its
    submissions of the last 24 hours used stay used (submissions.models.SpentQuota).

    Raises PermissionError for another team's system and SubmissionStateError when it has a ranked submission
    or a submission still generating, queued or running (cancel it first), or was deleted at the same moment.
    Runs under the team's lock (the one every new submission's quota check holds: submissions.services.quota_check),
    so an upload made at the same moment either comes first, and the system keeps it, or is refused.
    """
    system_member_check(system, user)
    with transaction.atomic():
        team_lock(system.team_id)
        if not System.objects.filter(pk=system.pk).exists():
            raise SubmissionStateError(f"{system.name} was deleted already.")
        if system_has_ranked_submission(system=system):
            raise SubmissionStateError(f"{system.name} has a ranked submission (on the board now, or withdrawn "
                                       "from it and kept for the admins), so it cannot be deleted.")
        active = Submission.objects.filter(system=system, status__in=ACTIVE_STATUSES).first()
        if active is not None:
            raise SubmissionStateError(f"Submission #{active.pk} of {system.name} is still {active.status}: cancel "
                                       "it first, then delete the system.")
        submissions = list(system.submissions.all())
        since = timezone.now() - WINDOW
        SpentQuota.objects.bulk_create(
            SpentQuota(team_id=system.team_id, created_at=s.created_at, submission_pk=s.pk) for s in submissions
            if s.created_at >= since and s.status not in UNCOUNTED_STATUSES)
        archives = [(s.archive.storage, s.archive.name) for s in submissions if s.archive.name]
        name, pk = system.name, system.pk
        system.delete()  # rows first (one cascade); the files only once they are gone
    for storage, path in archives:
        storage.delete(path)
    log.info("system %s (%s) deleted by %s", name, pk, user.username)
