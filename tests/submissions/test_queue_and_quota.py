"""Queue transparency (issue 13 "Lifecycle"): a queued submission's position and estimated start from recent task
durations, on the status page and in the API; the team's quota as "N of M submissions left today, next one tomorrow
(YYYY-MM-DD) at HH:MM UTC" on the submit page, in GET /api/v1/quota/ and in a 429's body."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from rest_framework.test import APIClient

from catalog.services import system_create, team_for_user
from evaluation.models import TaskResult
from evaluation.services import submission_create
from tests.factories import finished_submission, zip_bytes


@pytest.fixture
def private_dirs(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.EVALUATION_WORK_ROOT = tmp_path / "work"


@pytest.fixture
def team_api(make_user, demo_split, demo_zip, private_dirs):
    """team_api(name) -> (api client of a new user, submit() making a queued upload of its system)."""
    def make(name: str, archive: str = "agent-alpha"):
        user, token = make_user(name)
        system = system_create(team=team_for_user(user=user), name=f"{name.title()} Agent")
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {token}")

        def submit():
            upload = SimpleUploadedFile(f"{archive}.zip", demo_zip(archive), content_type="application/zip")
            return submission_create(system=system, split=demo_split, upload=upload, user=user, enqueue=False)
        return api, submit, user
    return make


def _history(demo_split, seconds: dict[str, float]) -> None:
    """A finished earlier submission whose every task took `seconds` (per phase)."""
    done = finished_submission(split=demo_split, system_name="History", scores={})
    TaskResult.objects.filter(run__submission=done).update(durations=seconds)


def test_a_queued_submission_shows_its_position_and_estimated_start(team_api, demo_split, settings):
    settings.EVALUATION_TASK_CONCURRENCY = 2
    _history(demo_split, {"install": 10.0, "start": 5.0, "test": 15.0})  # 30 s a task
    api_a, submit_a, _ = team_api("anna")
    api_b, submit_b, user_b = team_api("bert", "agent-beta")  # another team's archive: not a duplicate
    submit_a(), submit_a()
    mine = submit_b()

    before = timezone.now()
    queue = api_b.get(f"/api/v1/submissions/{mine.pk}/").json()["queue"]

    tasks = demo_split.tasks.count()
    assert (queue["position"], queue["ahead"], queue["tasks_ahead"]) == (3, 2, 2 * tasks)
    assert (queue["mean_task_seconds"], queue["slots"]) == (30.0, 2)
    waves = -(-2 * tasks // 2)
    start = datetime.fromisoformat(queue["estimated_start"])
    assert abs((start - before).total_seconds() - waves * 30) < 5

    api_b.force_authenticate(user_b)
    page = api_b.get(f"/submissions/{mine.pk}/").content.decode()
    assert "Position 3 in the queue (2 submissions ahead" in page and "estimated start around" in page


def test_the_position_moves_up_when_a_submission_ahead_is_cancelled(team_api):
    api_a, submit_a, _ = team_api("anna")
    api_b, submit_b, _ = team_api("bert", "agent-beta")
    first = submit_a()
    mine = submit_b()
    assert api_b.get(f"/api/v1/submissions/{mine.pk}/").json()["queue"]["position"] == 2

    api_a.post(f"/api/v1/submissions/{first.pk}/cancel/")

    queue = api_b.get(f"/api/v1/submissions/{mine.pk}/").json()["queue"]
    assert (queue["position"], queue["tasks_ahead"]) == (1, 0)
    assert queue["estimated_start"] is None or datetime.fromisoformat(queue["estimated_start"]) <= timezone.now()


def test_without_history_there_is_a_position_but_no_estimate(team_api):
    api, submit, _ = team_api("anna")
    mine = submit()
    queue = api.get(f"/api/v1/submissions/{mine.pk}/").json()["queue"]
    assert queue["position"] == 1 and queue["estimated_start"] is None and queue["mean_task_seconds"] is None


def test_a_used_quota_answers_429_with_when_the_next_one_is_possible(team_api, demo_zip, settings):
    settings.SUBMISSION_DAILY_QUOTA = 2
    api, submit, _ = team_api("anna")
    first, _ = submit(), submit()

    resp = api.post("/api/v1/submissions/", {"system": "Anna Agent", "archive": SimpleUploadedFile(
        "alpha.zip", demo_zip("agent-alpha"), content_type="application/zip")})

    assert resp.status_code == 429
    body = resp.json()
    next_at = first.created_at + timedelta(days=1)
    assert body["quota"] == {"limit": 2, "used": 2, "remaining": 0, "next_at": next_at.isoformat()}
    assert f"0 of 2 submissions left today, next one tomorrow ({next_at:%Y-%m-%d}) at {next_at:%H:%M} UTC" \
        in body["detail"]


def test_the_submit_page_and_the_api_say_how_many_are_left(team_api, client, settings):
    settings.SUBMISSION_DAILY_QUOTA = 3
    api, submit, user = team_api("anna")
    submit()
    client.force_login(user)

    assert "2 of 3 submissions left today" in client.get("/submit/").content.decode()
    [quota] = api.get("/api/v1/quota/").json()["teams"]
    assert quota == {"team": "anna", "limit": 3, "used": 1, "remaining": 2, "next_at": quota["next_at"],
                     "text": "2 of 3 submissions left today"}
    assert quota["next_at"] is not None

    submit(), submit()
    page = client.get("/submit/").content.decode()
    assert "0 of 3 submissions left today, next one tomorrow (" in page


def test_an_account_cannot_get_a_fresh_quota_by_moving_to_a_new_team(team_api, make_user, settings, demo_split,
                                                                    demo_zip):
    """Leaving one's team to a helper and creating a system made a new personal team with a fresh quota, again and
    again (the ninth break-it pass of issue 13): an account makes at most the quota across all its teams."""
    from catalog.services import invitation_answer, team_invite, team_leave
    from submissions.services import QuotaExceeded

    settings.SUBMISSION_DAILY_QUOTA = 2
    _, submit, user = team_api("cycler")
    submit(), submit()
    helper, _ = make_user("helper")
    old_team = team_for_user(user=user)
    invitation_answer(invitation=team_invite(team=old_team, by=user, who="helper"), user=helper, accept=True)
    team_leave(team=old_team, user=user)

    new_team = team_for_user(user=user)
    assert new_team != old_team
    system = system_create(team=new_team, name="Cycler Again")
    upload = SimpleUploadedFile("beta.zip", demo_zip("agent-beta"), content_type="application/zip")
    with pytest.raises(QuotaExceeded, match="Your account has made its 2 submissions"):
        submission_create(system=system, split=demo_split, upload=upload, user=user, enqueue=False)


def test_tasks_missing_from_an_archive_ahead_are_not_counted_as_to_evaluate(team_api, demo_split, settings):
    """A 1-task upload ahead (the other tasks missing from its archive, scored 0 without running) puts 1 task ahead,
    not the whole split, in the API and on the page, and the estimate waits for that one task only."""
    settings.EVALUATION_TASK_CONCURRENCY = 1
    _history(demo_split, {"install": 10.0, "start": 5.0, "test": 15.0})  # 30 s a task
    _, _, user_a = team_api("anna")
    api_b, submit_b, user_b = team_api("bert", "agent-beta")
    upload = SimpleUploadedFile("one.zip", zip_bytes({"TodoList/start.sh": b"echo anna\n"}))
    partial = submission_create(system=user_a.teams.get().systems.get(), split=demo_split, upload=upload,
                                user=user_a, enqueue=False, allow_missing=True)
    assert len(partial.missing_reasons) == demo_split.tasks.count() - 1
    mine = submit_b()

    before = timezone.now()
    queue = api_b.get(f"/api/v1/submissions/{mine.pk}/").json()["queue"]

    assert (queue["position"], queue["ahead"], queue["tasks_ahead"]) == (2, 1, 1)
    assert abs((datetime.fromisoformat(queue["estimated_start"]) - before).total_seconds() - 30) < 5
    api_b.force_authenticate(user_b)
    page = api_b.get(f"/submissions/{mine.pk}/").content.decode()
    assert "Position 2 in the queue (1 submission ahead, 1 task to evaluate before this one)" in page
