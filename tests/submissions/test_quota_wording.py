"""When a team's quota is used, the sentence says on which day the next submission is possible, in UTC: "today" or
"tomorrow (date)", not a bare HH:MM that reads as later today when it is tomorrow."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from catalog.models import System, Team
from submissions.models import Submission
from submissions.quota import quota_status

UTC = timezone.utc


@pytest.fixture
def team(demo_split, settings):
    settings.SUBMISSION_DAILY_QUOTA = 1
    team = Team.objects.create(name="clock")
    system = System.objects.create(team=team, name="Clock Agent")

    def submitted_at(when: datetime) -> None:
        submission = Submission.objects.create(system=system, split=demo_split, token=f"t{when:%H%M%d}",
                                               archive_name="a.zip", archive_sha256="0" * 64)
        Submission.objects.filter(pk=submission.pk).update(created_at=when)

    team.submitted_at = submitted_at
    return team


@pytest.mark.parametrize("zone", ["UTC", "Asia/Tokyo"])
def test_a_slot_back_on_the_next_day_says_tomorrow_and_its_date(team, settings, zone):
    settings.TIME_ZONE = zone  # the sentence is in UTC whatever the site's zone
    team.submitted_at(datetime(2026, 3, 10, 9, 12, tzinfo=UTC))
    now = datetime(2026, 3, 10, 20, 0, tzinfo=UTC)
    sentence = quota_status(team=team, now=now).sentence(now=now)
    assert sentence == "0 of 1 submissions left today, next one tomorrow (2026-03-11) at 09:12 UTC"


def test_a_slot_back_later_the_same_day_says_today(team):
    team.submitted_at(datetime(2026, 3, 9, 23, 30, tzinfo=UTC))
    now = datetime(2026, 3, 10, 8, 0, tzinfo=UTC)
    sentence = quota_status(team=team, now=now).sentence(now=now)
    assert sentence == "0 of 1 submissions left today, next one today at 23:30 UTC"


def test_with_submissions_left_no_time_is_given(team):
    now = datetime(2026, 3, 10, 8, 0, tzinfo=UTC)
    assert quota_status(team=team, now=now).sentence(now=now) == "1 of 1 submissions left today"
