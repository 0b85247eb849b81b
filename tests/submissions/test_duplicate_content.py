"""The duplicate rule (issue 12 feature 10) compares what an archive unpacks to, not only its bytes: the break-it
pass uploaded another team's files zipped again at -9 (and a team could re-pack another team's published output),
and both were accepted as new rows. Real archives made by zip and tar, posted through the real API and form."""
from __future__ import annotations

import io

import pytest

from catalog.models import System
from submissions.models import Submission
from tests.evaluation.test_archive_content_digest import targz, zip0, zip9
from tests.factories import api_client_with_system, api_upload


@pytest.fixture
def alice(make_user, demo_split):
    return api_client_with_system(make_user, "alice", "AliceBot")


@pytest.mark.parametrize("repack, filename", [(zip9, "again.zip"), (targz, "again.tar.gz")], ids=["zip-9", "tar.gz"])
def test_another_teams_files_packed_again_are_refused(alice, make_user, tmp_path, repack, filename):
    original = api_upload(alice, zip0(tmp_path), "AliceBot", "alpha.zip")
    assert original.status_code == 201, original.content
    stored = Submission.objects.get()
    assert len(stored.content_sha256) == 64

    mallory = api_client_with_system(make_user, "mallory", "MalloryBot")
    copy = api_upload(mallory, repack(tmp_path), "MalloryBot", filename)

    assert copy.status_code == 400, copy.content
    assert copy.json()["detail"] == (
        f"This archive is the same files (content sha256 {stored.content_sha256[:12]}…: the same paths and "
        f"contents, packed again) as submission #{stored.pk} of AliceBot, already queued on {stored.split}. The "
        "board ranks each team's own output once: upload the repositories your system generated.")
    assert Submission.objects.count() == 1


def test_the_byte_identical_message_is_kept(alice, make_user, tmp_path):
    data = zip9(tmp_path)
    assert api_upload(alice, data, "AliceBot").status_code == 201
    mallory = api_client_with_system(make_user, "mallory", "MalloryBot")
    detail = api_upload(mallory, data, "MalloryBot").json()["detail"]
    assert detail.startswith("This archive is byte-identical (sha256 ") and "AliceBot" in detail


def test_the_same_team_may_upload_its_files_packed_again_and_a_failed_one_blocks_nobody(alice, make_user,
                                                                                         tmp_path):
    assert api_upload(alice, zip0(tmp_path), "AliceBot").status_code == 201
    assert api_upload(alice, targz(tmp_path), "AliceBot", "again.tar.gz").status_code == 201  # its own re-run
    Submission.objects.update(status=Submission.Status.FAILED)
    mallory = api_client_with_system(make_user, "mallory", "MalloryBot")
    assert api_upload(mallory, zip9(tmp_path), "MalloryBot").status_code == 201


def test_the_form_refuses_repacked_files_with_the_same_message(alice, make_user, client, tmp_path):
    assert api_upload(alice, zip0(tmp_path), "AliceBot").status_code == 201
    user, _ = make_user("carol")
    system = System.objects.create(team=user.teams.get(), name="CarolBot")
    client.force_login(user)
    upload = io.BytesIO(targz(tmp_path))
    upload.name = "copy.tar.gz"
    resp = client.post("/submit/", {"system": system.pk, "archive": upload, "allow_missing": "on"})
    assert resp.status_code == 400
    assert "the same files (content sha256" in resp.content.decode()
    assert Submission.objects.count() == 1
