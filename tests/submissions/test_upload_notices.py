"""What an upload tells its team before it is queued (issue 12 defects and feature 10): wrong-case folders with the
folders found, the tasks missing, member names too long to unpack, and an archive another team already submitted."""
from __future__ import annotations

import io

import pytest
from django.utils import timezone

from catalog.models import System
from submissions.models import Submission
from tests.factories import api_client_with_system, api_upload, zip_bytes


@pytest.fixture
def alice(make_user, demo_split):
    return api_client_with_system(make_user, "alice", "AliceBot")


def test_a_lone_wrong_case_folder_is_named_with_a_case_hint(alice):
    resp = api_upload(alice, zip_bytes({"todolist/start.sh": b"echo\n", "todolist/app.py": b"x"}))
    assert resp.status_code == 400, resp.content
    detail = resp.json()["detail"]
    assert "found: 'todolist'" in detail
    assert "'todolist' is not 'TodoList'" in detail and "case-sensitive" in detail
    assert Submission.objects.count() == 0


def test_a_wrapped_wrong_case_folder_is_named_too(alice):
    resp = api_upload(alice, zip_bytes({"run/todolist/start.sh": b"echo\n", "run/notes/start.sh": b"echo\n"}))
    assert resp.status_code == 400
    detail = resp.json()["detail"]
    assert "'todolist'" in detail and "'notes'" in detail and "case-sensitive" in detail


def test_an_upload_missing_tasks_says_how_many_and_which(alice):
    resp = api_upload(alice, zip_bytes({"TodoList/start.sh": b"echo\n"}))
    assert resp.status_code == 201, resp.content
    body = resp.json()
    assert body["warnings"][0] == ("5 tasks missing (each scores 0): Bookstore, InventoryService, Notes, "
                                   "Tic-Tac-Toe, UserManagement_2")


def test_the_form_asks_before_queueing_an_upload_with_missing_tasks(make_user, client, demo_split):
    user, _ = make_user("carol")
    system = System.objects.create(team=user.teams.get(), name="CarolBot")
    client.force_login(user)

    def post(**extra):
        upload = io.BytesIO(zip_bytes({"TodoList/start.sh": b"echo\n"}))
        upload.name = "one.zip"
        return client.post("/submit/", {"system": system.pk, "archive": upload, "is_public": "on", **extra})

    first = post()
    assert first.status_code == 400
    page = first.content.decode()
    assert "5 tasks missing" in page and "Bookstore" in page and "score 0" in page
    assert Submission.objects.count() == 0
    second = post(allow_missing="on")
    assert second.status_code == 302
    assert Submission.objects.count() == 1


def test_a_member_name_too_long_to_unpack_is_refused_at_upload(alice):
    long_name = "a" * 300 + ".py"
    resp = api_upload(alice, zip_bytes({"TodoList/start.sh": b"echo\n", f"TodoList/{long_name}": b"x"}))
    assert resp.status_code == 400, resp.content
    detail = resp.json()["detail"]
    assert "303 characters" in detail and "255" in detail and "clash" not in detail
    assert Submission.objects.count() == 0


def test_an_archive_already_submitted_by_another_team_is_refused(alice, make_user, demo_zip):
    original = api_upload(alice, demo_zip("agent-alpha"))
    assert original.status_code == 201
    mallory = api_client_with_system(make_user, "mallory", "MalloryBot")
    copy = api_upload(mallory, demo_zip("agent-alpha"), system="MalloryBot")
    assert copy.status_code == 400, copy.content
    detail = copy.json()["detail"]
    assert "byte-identical" in detail and f"#{original.json()['id']}" in detail and "AliceBot" in detail
    assert Submission.objects.count() == 1


def test_the_api_refuses_an_archive_lacking_tasks_unless_allowed_as_the_form_does(alice):
    """The fresh-user pass: the API queued an archive of another benchmark's tasks (28 of 30 missing) that the
    upload form refused; both refuse it now unless told to queue it anyway."""
    resp = api_upload(alice, zip_bytes({"TodoList/start.sh": b"echo\n"}), allow_missing=False)
    assert resp.status_code == 400
    assert resp.json()["detail"].startswith("5 tasks missing (each scores 0): Bookstore, InventoryService, Notes, "
                                            "Tic-Tac-Toe, UserManagement_2. Nothing was queued")
    assert not Submission.objects.exists()


def test_the_same_team_may_upload_its_archive_again_and_a_changed_archive_is_accepted(alice, make_user, demo_zip):
    assert api_upload(alice, demo_zip("agent-alpha")).status_code == 201
    assert api_upload(alice, demo_zip("agent-alpha")).status_code == 201  # e.g. a re-run of its own system
    mallory = api_client_with_system(make_user, "mallory", "MalloryBot")
    changed = api_upload(mallory, zip_bytes({"TodoList/start.sh": b"echo mallory\n"}), system="MalloryBot")
    assert changed.status_code == 201, changed.content


def test_an_archive_whose_evaluation_failed_does_not_block_another_team(alice, make_user, demo_zip):
    assert api_upload(alice, demo_zip("agent-alpha")).status_code == 201
    Submission.objects.update(status=Submission.Status.FAILED)
    mallory = api_client_with_system(make_user, "mallory", "MalloryBot")
    assert api_upload(mallory, demo_zip("agent-alpha"), system="MalloryBot").status_code == 201


def test_the_form_refuses_a_duplicate_with_the_same_message(alice, make_user, client, demo_zip):
    assert api_upload(alice, demo_zip("agent-alpha")).status_code == 201
    user, _ = make_user("carol")
    system = System.objects.create(team=user.teams.get(), name="CarolBot")
    client.force_login(user)
    upload = io.BytesIO(demo_zip("agent-alpha"))
    upload.name = "copy.zip"
    resp = client.post("/submit/", {"system": system.pk, "archive": upload, "allow_missing": "on"})
    assert resp.status_code == 400 and "byte-identical" in resp.content.decode()
    assert Submission.objects.count() == 1


def test_one_output_is_ranked_once_under_one_system_of_a_team(alice, demo_zip):
    """The fresh-user pass: a team's archive uploaded for two of its systems was ranked twice, as two rows."""
    team = System.objects.get(name="AliceBot").team
    System.objects.create(team=team, name="AliceBot Two")
    first = api_upload(alice, demo_zip("agent-alpha"))
    assert first.status_code == 201, first.content
    second = api_upload(alice, demo_zip("agent-alpha"), system="AliceBot Two")
    assert second.status_code == 400
    assert f"submission #{first.json()['id']} of your team's system AliceBot" in second.json()["detail"]
    assert "withdraw" in second.json()["detail"]
    Submission.objects.filter(pk=first.json()["id"]).update(withdrawn_at="2026-12-03T10:00:00Z")
    assert api_upload(alice, demo_zip("agent-alpha"), system="AliceBot Two").status_code == 201


def test_a_re_run_page_names_the_submission_it_repeats(alice, make_user, client, demo_zip):
    first = api_upload(alice, demo_zip("agent-alpha")).json()["id"]
    second = api_upload(alice, demo_zip("agent-alpha")).json()["id"]
    other = api_upload(alice, zip_bytes({"TodoList/start.sh": b"echo changed\n"})).json()["id"]
    client.force_login(Submission.objects.get(pk=first).system.team.members.get())

    page = client.get(f"/submissions/{second}/").content.decode()
    assert ("A re-run, scored on its own: AliceBot submitted the same files 1 time before, last as "
            f'<a href="/submissions/{first}/">submission #{first}</a>') in page
    for pk in (first, other):  # the first upload and a changed archive repeat nothing
        assert 'id="rerun"' not in client.get(f"/submissions/{pk}/").content.decode()


def test_a_re_run_page_counts_the_withdrawn_runs_of_the_same_files(alice, make_user, client, demo_zip):
    """Break-it pass 12 of issue 13: the first run withdrawn, the re-run's page no longer said it was a re-run, so the
    best of several runs read as a single run. Everyone sees how many runs there were; a withdrawn one is not
    linked to anyone outside the team."""
    first = api_upload(alice, demo_zip("agent-alpha")).json()["id"]
    second = api_upload(alice, demo_zip("agent-alpha")).json()["id"]
    Submission.objects.filter(pk=first).update(is_public=False, withdrawn_at=timezone.now())
    Submission.objects.filter(pk=second).update(is_public=True)

    for viewer, linked in ((make_user("stranger")[0], False), (None, False),
                           (Submission.objects.get(pk=first).system.team.members.get(), True)):
        client.logout()
        if viewer:
            client.force_login(viewer)
        page = client.get(f"/submissions/{second}/").content.decode()
        assert "submitted the same files 1 time before (1 since withdrawn from the board)" in page
        assert (f'href="/submissions/{first}/"' in page) == linked
