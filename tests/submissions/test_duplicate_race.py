"""The duplicate rule holds under concurrency (issue 13 break-it pass): the same archive uploaded at the same moment
by two teams was accepted twice, both ranked, because each upload was checked before the other was stored. The check
is asked again in the transaction that stores the submission, one upload to the split at a time (PostgreSQL: the
split's row locked; SQLite: the immediate transaction's write lock), so the second team gets the sequential 400
naming the first's submission. One team's own uploads at once are both kept.

Real threads, each with its own database connection, through the API; each upload is held after its early checks
(tests.conftest.meet_after) until the other has passed them too: the interleaving that went wrong, on every run."""
from __future__ import annotations

import pytest

import submissions.services
from submissions.models import Submission
from tests.conftest import import_demo, meet_after, race
from tests.evaluation.test_archive_content_digest import targz, zip0
from tests.factories import api_client_with_system, api_upload


@pytest.fixture
def uploads(make_user, settings, tmp_path, monkeypatch):
    """The demo benchmark imported and each upload held after its early checks (the duplicate rule and the quota,
    outside the storing transaction) until both have passed them."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.EVALUATION_WORK_ROOT = tmp_path / "work"
    import_demo()  # a transactional test starts from an emptied database on PostgreSQL
    meet_after(monkeypatch, submissions.services, "quota_check", 2, when=lambda **kwargs: not kwargs.get("hold"))


def _client(make_user, name: str, system: str):
    """The API client of a new user `name` with its system, answering an unhandled exception with its 500 (a test
    client re-raises it by default, and Django's got_request_exception signal hands it to every client in flight)."""
    client = api_client_with_system(make_user, name, system)
    client.raise_request_exception = False
    return client


@pytest.mark.django_db(transaction=True)  # every uploading thread commits through its own connection
@pytest.mark.parametrize("repacked", [False, True], ids=["same-bytes", "packed-again"])
def test_two_teams_uploading_the_same_files_at_once_store_one(uploads, make_user, tmp_path, repacked):
    alice, mallory = _client(make_user, "alice", "AliceBot"), _client(make_user, "mallory", "MalloryBot")
    data = zip0(tmp_path)
    copy = (targz(tmp_path), "again.tar.gz") if repacked else (data, "alpha.zip")

    results = race(lambda: api_upload(alice, data, "AliceBot", "alpha.zip"),
                   lambda: api_upload(mallory, *copy[:1], "MalloryBot", copy[1]))

    assert sorted(r.status_code for r in results) == [201, 400], results
    [stored] = Submission.objects.select_related("system", "split__benchmark")
    [refused] = [r for r in results if r.status_code == 400]
    detail = refused.json()["detail"]
    assert detail.startswith("This archive is the same files" if repacked else "This archive is byte-identical")
    assert f"submission #{stored.pk} of {stored.system.name}, already queued on {stored.split}." in detail


@pytest.mark.django_db(transaction=True)
def test_one_team_uploading_its_files_twice_at_once_keeps_both(uploads, make_user, tmp_path):
    alice = _client(make_user, "alice", "AliceBot")
    data = zip0(tmp_path)

    results = race(*(lambda: api_upload(alice, data, "AliceBot", "alpha.zip") for _ in range(2)))

    assert [r.status_code for r in results] == [201, 201], results
    assert Submission.objects.count() == 2
