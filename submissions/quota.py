"""The daily submission quota of a team (SUBMISSION_DAILY_QUOTA per rolling 24 hours), and the same limit for
each account across its teams (`account_quota_status`).

Every submission of any of the team's systems counts (uploads and endpoint runs alike, whichever member made it),
except failed and cancelled ones (submissions.models.UNCOUNTED_STATUSES): a cancel refunds its slot. A slot comes
back 24 hours after the submission that used it was made, also when that submission was deleted with its system
since (submissions.models.SpentQuota).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

from django.conf import settings
from django.utils import timezone

from catalog.models import Team

from .models import UNCOUNTED_STATUSES, SpentQuota, Submission

#: The quota's window.
WINDOW = timedelta(days=1)


@dataclass(frozen=True)
class QuotaStatus:
    """A team's quota now: `limit` submissions per 24 h, `used` of them, `remaining` (limit - used, at least 0),
    and `next_at`, the moment the oldest counted submission of the window leaves it (a slot comes back; None when
    nothing is counted)."""

    limit: int
    used: int
    remaining: int
    next_at: datetime | None

    def as_dict(self) -> dict:
        """JSON shape (API, 429 body): {"limit", "used", "remaining", "next_at": ISO 8601 or null}."""
        return {"limit": self.limit, "used": self.used, "remaining": self.remaining,
                "next_at": self.next_at.isoformat() if self.next_at else None}

    def sentence(self, *, now: datetime | None = None) -> str:
        """"N of M submissions left today", and when none is left, when the next one is possible, in UTC and
        relative to `now` (default: now): "…, next one today at 18:05 UTC", "…, next one tomorrow (2026-12-03) at
        09:12 UTC" (a slot comes back within 24 hours, so never later; a later day would read "on 2026-12-05")."""
        text = f"{self.remaining} of {self.limit} submissions left today"
        if self.remaining == 0 and self.next_at:
            at = self.next_at.astimezone(dt_timezone.utc)
            days = (at.date() - (now or timezone.now()).astimezone(dt_timezone.utc).date()).days
            day = "today" if days <= 0 else f"tomorrow ({at:%Y-%m-%d})" if days == 1 else f"on {at:%Y-%m-%d}"
            text += f", next one {day} at {at:%H:%M} UTC"
        return text


def quota_status(*, team: Team, now: datetime | None = None) -> QuotaStatus:
    """The team's quota at `now` (default: now): see QuotaStatus."""
    now = now or timezone.now()
    counted = [*Submission.objects.filter(system__team=team, created_at__gte=now - WINDOW)
               .exclude(status__in=UNCOUNTED_STATUSES).values_list("created_at", flat=True),
               *SpentQuota.objects.filter(team=team, created_at__gte=now - WINDOW)
               .values_list("created_at", flat=True)]
    return _status(counted)


def account_quota_status(*, user, now: datetime | None = None) -> QuotaStatus:
    """The same limit for one account across all its teams at `now` (default: now): the submissions it made
    itself in the window, counted as a team's are. Without it, leaving one's team and creating a system made a new
    personal team with a fresh quota, again and again (the ninth break-it pass of issue 13)."""
    now = now or timezone.now()
    return _status(list(Submission.objects.filter(submitted_by=user, created_at__gte=now - WINDOW)
                        .exclude(status__in=UNCOUNTED_STATUSES).values_list("created_at", flat=True)))


def _status(counted: list[datetime]) -> QuotaStatus:
    counted = sorted(counted)
    limit = settings.SUBMISSION_DAILY_QUOTA
    # The slot that comes back first once the limit is reached: the oldest of the last `limit` counted ones.
    freeing = counted[max(len(counted) - limit, 0)] if counted else None
    return QuotaStatus(limit=limit, used=len(counted), remaining=max(limit - len(counted), 0),
                       next_at=freeing + WINDOW if freeing else None)
