"""Cancel, withdraw, edit and delete (issue 13 "Lifecycle"): through the API and the pages, with real rows.

A cancelled queued run is never claimed, its slot of the quota comes back; a withdrawn submission leaves the board
but stays stored with who, when and why; a system keeps what the board showed once it has a ranked submission.
"""
from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from catalog.models import System
from catalog.services import system_create, team_for_user
from evaluation.models import EvaluationRun, RunStatus
from evaluation.pipeline import result_claim, run_claim, run_prepare
from evaluation.services import submission_create
from leaderboard.selectors import leaderboard_rows
from submissions.models import Submission
from submissions.services import QuotaExceeded, SubmissionError
from tests.factories import finished_submission


@pytest.fixture
def private_dirs(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.EVALUATION_WORK_ROOT = tmp_path / "work"
    return tmp_path


@pytest.fixture
def alice(make_user):
    user, token = make_user("alice")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return user, api


@pytest.fixture
def queued(alice, demo_split, demo_zip, private_dirs):
    """queued() -> a queued upload of agent-alpha for alice's system (not sent to a worker)."""
    user, _ = alice
    system = System.objects.filter(name="Alice Agent").first() or system_create(
        team=team_for_user(user=user), name="Alice Agent")

    def make() -> Submission:
        upload = SimpleUploadedFile("alpha.zip", demo_zip("agent-alpha"), content_type="application/zip")
        return submission_create(system=system, split=demo_split, upload=upload, user=user, enqueue=False)

    return make


# --- cancel -----------------------------------------------------------------------------------------------
def test_a_cancelled_queued_submission_is_never_evaluated(alice, queued):
    _, api = alice
    submission = queued()
    run = submission.runs.get()

    resp = api.post(f"/api/v1/submissions/{submission.pk}/cancel/")

    assert resp.status_code == 200, resp.content
    assert resp.json()["status"] == "cancelled" and resp.json()["run"]["status"] == "cancelled"
    assert run_prepare(run_id=run.pk) is None  # the worker's delivery finds nothing to claim
    assert result_claim(result_id=run.results.first().pk) is None
    submission.refresh_from_db()
    assert submission.status == "cancelled" and submission.cancelled_by.username == "alice"
    assert submission.finished_at is not None


def test_cancelling_a_running_run_stops_its_pending_tasks_from_being_claimed(alice, queued):
    _, api = alice
    submission = queued()
    run = run_claim(run_id=submission.runs.get().pk)

    assert api.post(f"/api/v1/submissions/{submission.pk}/cancel/").status_code == 200

    assert EvaluationRun.objects.get(pk=run.pk).status == RunStatus.CANCELLED
    assert all(result_claim(result_id=r.pk) is None for r in run.results.all())


def test_a_cancel_refunds_the_quota(alice, queued, settings):
    _, api = alice
    settings.SUBMISSION_DAILY_QUOTA = 2
    first, _second = queued(), queued()
    with pytest.raises(QuotaExceeded):
        queued()

    api.post(f"/api/v1/submissions/{first.pk}/cancel/")

    assert queued().status == "queued"  # the cancelled one's slot came back


def test_a_finished_submission_cannot_be_cancelled(alice, demo_split):
    user, api = alice
    done = finished_submission(split=demo_split, system_name="Done Agent", scores={}, team=team_for_user(user=user))

    resp = api.post(f"/api/v1/submissions/{done.pk}/cancel/")

    assert resp.status_code == 409
    assert "already finished" in resp.json()["detail"]
    done.refresh_from_db()
    assert done.status == "finished"


def test_another_team_cannot_cancel(alice, queued, make_user):
    submission = queued()
    _, token = make_user("mallory")
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    resp = other.post(f"/api/v1/submissions/{submission.pk}/cancel/")

    assert resp.status_code == 403
    submission.refresh_from_db()
    assert submission.status == "queued"


def test_the_status_page_has_a_cancel_button_that_works(alice, queued, client):
    user, _ = alice
    submission = queued()
    client.force_login(user)

    page = client.get(f"/submissions/{submission.pk}/").content.decode()
    assert 'id="cancel-form"' in page
    resp = client.post(f"/submissions/{submission.pk}/cancel/", follow=True)

    assert "was cancelled" in resp.content.decode()
    assert 'id="cancel-form"' not in resp.content.decode()
    submission.refresh_from_db()
    assert submission.status == "cancelled"


def test_a_cancelled_generation_is_not_packed_or_scored(alice, demo_split, private_dirs):
    from evaluation.generation import generation_finish
    from evaluation.services import generation_start
    from submissions.models import AgentEndpoint

    user, api = alice
    system = system_create(team=team_for_user(user=user), name="Endpoint Agent")
    AgentEndpoint.objects.create(system=system, url="https://agent.example.org/")  # never called here
    submission = generation_start(system=system, split=demo_split, user=user, enqueue=False)

    assert api.post(f"/api/v1/submissions/{submission.pk}/cancel/").status_code == 200
    after = generation_finish(submission=Submission.objects.get(pk=submission.pk))

    assert after.status == "cancelled" and not after.runs.exists() and not after.archive.name
    assert set(after.generation_calls.values_list("status", flat=True)) == {"failed"}


# --- withdraw ---------------------------------------------------------------------------------------------
def test_a_withdrawn_submission_leaves_the_board_and_keeps_who_when_why(alice, demo_split):
    user, api = alice
    team = team_for_user(user=user)
    done = finished_submission(split=demo_split, system_name="Board Agent", scores={"TodoList": (17, "passed", 1)},
                               team=team)
    assert [r.label for r in leaderboard_rows(split=demo_split, language="overall")] == ["Board Agent"]

    resp = api.post(f"/api/v1/submissions/{done.pk}/withdraw/", {"reason": "trained on the hidden tests"})

    assert resp.status_code == 200, resp.content
    assert resp.json()["withdrawn_at"] and resp.json()["withdrawn_reason"] == "trained on the hidden tests"
    assert leaderboard_rows(split=demo_split, language="overall") == []
    done.refresh_from_db()
    assert (done.withdrawn_by, done.withdrawn_reason, done.is_public) == (user, "trained on the hidden tests", False)
    assert APIClient().get(f"/api/v1/submissions/{done.pk}/").status_code == 404  # no longer public
    assert api.get(f"/api/v1/submissions/{done.pk}/").status_code == 200  # the team still sees it


def test_withdraw_needs_a_reason_and_a_finished_public_submission(alice, demo_split, queued):
    user, api = alice
    done = finished_submission(split=demo_split, system_name="Board Agent", scores={}, team=team_for_user(user=user))

    assert api.post(f"/api/v1/submissions/{done.pk}/withdraw/", {"reason": "  "}).status_code == 400
    assert api.post(f"/api/v1/submissions/{queued().pk}/withdraw/", {"reason": "x"}).status_code == 409
    api.post(f"/api/v1/submissions/{done.pk}/withdraw/", {"reason": "first"})
    again = api.post(f"/api/v1/submissions/{done.pk}/withdraw/", {"reason": "second"})
    assert again.status_code == 409 and "already withdrawn" in again.json()["detail"]
    done.refresh_from_db()
    assert done.withdrawn_reason == "first"


def test_a_withdraw_reason_of_invisible_characters_is_refused(alice, demo_split):
    """Break-it pass 12 of issue 13: a right-to-left override and a braille blank made a required reason of nothing
    visible, stored and written raw into the log."""
    user, api = alice
    done = finished_submission(split=demo_split, system_name="Board Agent", scores={}, team=team_for_user(user=user))

    resp = api.post(f"/api/v1/submissions/{done.pk}/withdraw/", {"reason": "\u202e\u2800"})

    assert resp.status_code == 400 and "RIGHT-TO-LEFT OVERRIDE" in resp.json()["detail"], resp.content
    done.refresh_from_db()
    assert not done.withdrawn_at and done.is_public


@pytest.mark.parametrize("body", [{}, {"reason": ""}, {"reason": "x" * 501}, {"reason": "not yours"}],
                         ids=["no-reason", "empty-reason", "long-reason", "reason"])
def test_withdrawing_another_teams_submission_is_403_whatever_the_body(make_user, demo_split, body):
    done = finished_submission(split=demo_split, system_name="Board Agent", scores={})
    _, token = make_user("mallory")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    resp = api.post(f"/api/v1/submissions/{done.pk}/withdraw/", body, format="json")

    assert (resp.status_code, resp.json()) == (403, {"detail": "only the submission's team can withdraw it"})
    done.refresh_from_db()
    assert done.is_public and done.withdrawn_at is None


@pytest.mark.parametrize("body", [{"name": ""}, {"type": "nonsense"}, {"name": "Fine Name"}],
                         ids=["blank-name", "bad-type", "good-name"])
def test_editing_another_teams_system_is_403_whatever_the_body(alice, make_user, body):
    user, _ = alice
    system = system_create(team=team_for_user(user=user), name="Alice Agent")
    _, token = make_user("mallory")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    resp = api.patch(f"/api/v1/systems/{system.pk}/", body, format="json")

    assert (resp.status_code, resp.json()) == (403, {"detail": "the system 'Alice Agent' belongs to another team"})
    system.refresh_from_db()
    assert (system.name, system.type) == ("Alice Agent", System._meta.get_field("type").default)


def test_the_status_page_withdraws_with_a_reason(alice, demo_split, client):
    user, _ = alice
    done = finished_submission(split=demo_split, system_name="Board Agent", scores={}, team=team_for_user(user=user))
    client.force_login(user)
    assert 'id="withdraw"' in client.get(f"/submissions/{done.pk}/").content.decode()

    page = client.post(f"/submissions/{done.pk}/withdraw/", {"reason": "a bug in our packer"}, follow=True)

    assert "Withdrawn from the public board by alice" in page.content.decode()
    assert "a bug in our packer" in page.content.decode()


# --- edit and delete a system -----------------------------------------------------------------------------
def test_a_system_without_ranked_submission_can_be_renamed_and_deleted(alice, queued):
    _, api = alice
    submission = queued()
    system = submission.system
    api.post(f"/api/v1/submissions/{submission.pk}/cancel/")

    resp = api.patch(f"/api/v1/systems/{system.pk}/", {"name": "Alice Agent 2", "base_model": "m-2"}, format="json")
    assert resp.status_code == 200, resp.content
    assert (resp.json()["name"], resp.json()["base_model"], resp.json()["ranked"]) == ("Alice Agent 2", "m-2", False)

    archive = submission.archive.path
    assert api.delete(f"/api/v1/systems/{system.pk}/").status_code == 204
    assert not System.objects.filter(pk=system.pk).exists() and not Submission.objects.filter(pk=submission.pk).exists()
    from pathlib import Path
    assert not Path(archive).exists()


def test_a_system_with_a_ranked_submission_keeps_its_name_and_cannot_be_deleted(alice, demo_split):
    user, api = alice
    done = finished_submission(split=demo_split, system_name="Ranked Agent", scores={}, team=team_for_user(user=user))
    ref = done.system.pk

    renamed = api.patch(f"/api/v1/systems/{ref}/", {"name": "Someone Else"}, format="json")
    assert renamed.status_code == 400 and "ranked submission" in renamed.json()["name"][0]
    described = api.patch(f"/api/v1/systems/{ref}/", {"description": "now with docs"}, format="json")
    assert described.status_code == 200 and described.json()["description"] == "now with docs"
    deleted = api.delete(f"/api/v1/systems/{ref}/")
    assert deleted.status_code == 409 and "ranked submission" in deleted.json()["detail"]

    api.post(f"/api/v1/submissions/{done.pk}/withdraw/", {"reason": "gone"})  # withdrawn: still kept, still locked
    assert api.delete(f"/api/v1/systems/{ref}/").status_code == 409
    assert System.objects.get(pk=ref).name == "Ranked Agent"


def test_deleting_a_system_gives_no_quota_back(alice, demo_split, settings):
    """The eighth break-it pass of issue 13: private submissions, then their system deleted, gave their slots back
    (eight full evaluations against the hidden tests in a day, "5 of 5 left" throughout)."""
    from submissions.quota import quota_status

    user, api = alice
    settings.SUBMISSION_DAILY_QUOTA = 3
    team = team_for_user(user=user)
    for name in ("Throwaway One", "Throwaway Two"):
        finished_submission(split=demo_split, system_name=name, scores={}, team=team, is_public=False)
    cancelled = finished_submission(split=demo_split, system_name="Throwaway Two", scores={}, team=team,
                                    is_public=False)
    Submission.objects.filter(pk=cancelled.pk).update(status=Submission.Status.CANCELLED)  # refunded: not counted
    assert quota_status(team=team).remaining == 1
    for name in ("Throwaway One", "Throwaway Two"):
        assert api.delete(f"/api/v1/systems/{System.objects.get(name=name).pk}/").status_code == 204
    after = quota_status(team=team)
    assert (after.used, after.remaining) == (2, 1)
    assert api.get("/api/v1/teams/").status_code == 200


def test_an_upload_for_a_system_deleted_meanwhile_is_refused_with_the_reason(alice, demo_split, demo_zip,
                                                                              private_dirs):
    """The eighth break-it pass: an upload racing the system's deletion was a 500 (the insert's foreign key)."""
    user, api = alice
    system = system_create(team=team_for_user(user=user), name="Vanishing Agent")
    assert api.delete(f"/api/v1/systems/{system.pk}/").status_code == 204  # while the upload was being checked
    upload = SimpleUploadedFile("alpha.zip", demo_zip("agent-alpha"), content_type="application/zip")
    with pytest.raises(SubmissionError, match="was deleted while the submission was being made"):
        submission_create(system=system, split=demo_split, upload=upload, user=user, enqueue=False)
    assert not Submission.objects.exists()
    assert not list((private_dirs / "media").rglob("*.zip"))  # the archive is not kept either


def test_a_system_with_a_running_submission_cannot_be_deleted(alice, queued):
    _, api = alice
    submission = queued()
    resp = api.delete(f"/api/v1/systems/{submission.system.pk}/")
    assert resp.status_code == 409 and "cancel it first" in resp.json()["detail"]


def test_another_team_cannot_edit_or_delete(alice, queued, make_user):
    system = queued().system
    _, token = make_user("mallory")
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    assert other.patch(f"/api/v1/systems/{system.pk}/", {"name": "Pwned"}, format="json").status_code == 403
    assert other.delete(f"/api/v1/systems/{system.pk}/").status_code == 403
    assert System.objects.get(pk=system.pk).name == "Alice Agent"


def test_the_edit_page_locks_what_the_board_showed(alice, demo_split, client):
    user, _ = alice
    done = finished_submission(split=demo_split, system_name="Ranked Agent", scores={}, team=team_for_user(user=user))
    client.force_login(user)
    url = f"/systems/{done.system.pk}/edit/"

    resp = client.post(url, {"name": "Renamed", "type": "agent", "description": "better words"}, follow=True)

    system = System.objects.get(pk=done.system.pk)
    assert (system.name, system.description) == ("Ranked Agent", "better words")
    assert "saved" in resp.content.decode()
    assert "Delete system" not in client.get(f"/systems/{system.pk}/").content.decode()
