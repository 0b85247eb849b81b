"""Uploading archives through the API and the form: accepted layouts, clear refusals, nothing left behind."""
import io
import tarfile
import zipfile
from pathlib import Path

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from submissions.models import Submission


@pytest.fixture
def api(make_user, demo_split):
    user, token = make_user("alice")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    resp = client.post("/api/v1/systems/", {"name": "AliceBot", "base_model": "m", "type": "agent"}, format="json")
    assert resp.status_code == 201, resp.content
    return client


def _zip(entries: dict[str, bytes], links: dict[str, str] | None = None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
        for name, target in (links or {}).items():
            info = zipfile.ZipInfo(name)
            info.external_attr = 0o120777 << 16
            zf.writestr(info, target)
    return buf.getvalue()


def _post(api, data: bytes, name: str = "sub.zip"):
    upload = io.BytesIO(data)
    upload.name = name
    return api.post("/api/v1/submissions/", {"system": "AliceBot", "archive": upload, "allow_missing": True},
                    format="multipart")


def _stored_files() -> list[Path]:
    root = Path(settings.MEDIA_ROOT) / "submissions"
    return [p for p in root.rglob("*") if p.is_file()] if root.exists() else []


def test_good_archive_is_queued_with_one_pending_result_per_task(api, demo_zip):
    before = len(_stored_files())
    resp = _post(api, demo_zip("agent-alpha"))
    assert resp.status_code == 201, resp.content
    body = resp.json()
    assert body["status"] == "queued"
    assert body["run"]["progress"]["total"] == 6
    assert {t["status"] for t in body["run"]["progress"]["tasks"]} == {"pending"}
    assert len(_stored_files()) == before + 1


def test_wrapping_folder_is_accepted(api):
    resp = _post(api, _zip({"my-run/TodoList/start.sh": b"echo\n", "my-run/Notes/start.sh": b"echo\n"}))
    assert resp.status_code == 201, resp.content


@pytest.mark.parametrize("data,name,reason", [
    (b"this is not an archive", "sub.zip", "not a .zip or .tar.gz"),
    (_zip({}), "sub.zip", "empty"),
    (_zip({"TodoList/../../evil.sh": b"x"}), "sub.zip", "escapes"),
    (_zip({"/etc/TodoList/start.sh": b"x"}), "sub.zip", "absolute"),
    (_zip({"TodoList/start.sh": b"x"}, links={"TodoList/passwd": "/etc/passwd"}), "sub.zip", "link"),
    (_zip({"outer/inner/TodoList/start.sh": b"x", "outer/inner/Notes/start.sh": b"x"}), "sub.zip", "nested one level too deep"),
    (_zip({"start.sh": b"x", "app.py": b"x"}), "sub.zip", "no task folder"),
    (b"PK\x03\x04 broken", "sub.rar", "not an archive"),
])
def test_bad_archive_is_refused_with_its_reason_and_nothing_is_stored(api, data, name, reason):
    before = len(_stored_files())
    resp = _post(api, data, name)
    assert resp.status_code == 400
    assert reason in resp.json()["detail"]
    assert Submission.objects.count() == 0
    assert len(_stored_files()) == before


def test_tar_with_symlink_is_refused(api):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        info = tarfile.TarInfo("TodoList/start.sh")
        info.type = tarfile.SYMTYPE
        info.linkname = "/etc/shadow"
        tf.addfile(info)
    resp = _post(api, buf.getvalue(), "sub.tar.gz")
    assert resp.status_code == 400
    assert "link" in resp.json()["detail"]


def test_too_big_upload_is_refused_before_it_is_read(api, settings, demo_zip):
    settings.SUBMISSION_MAX_UPLOAD_BYTES = 1000
    resp = _post(api, demo_zip("agent-alpha"))
    assert resp.status_code == 400
    assert "limit" in resp.json()["detail"]
    assert Submission.objects.count() == 0


def test_daily_quota_counts_only_evaluations_that_did_not_fail(api, settings, demo_zip):
    settings.SUBMISSION_DAILY_QUOTA = 1
    assert _post(api, demo_zip("agent-alpha")).status_code == 201
    second = _post(api, demo_zip("agent-alpha"))
    assert second.status_code == 429 and "24 hours" in second.json()["detail"]
    Submission.objects.update(status=Submission.Status.FAILED)
    assert _post(api, demo_zip("agent-alpha")).status_code == 201


def test_cannot_submit_for_another_teams_system(api, make_user, demo_zip):
    _, token = make_user("mallory")
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    upload = io.BytesIO(demo_zip("agent-alpha"))
    upload.name = "x.zip"
    resp = other.post("/api/v1/submissions/", {"system": "AliceBot", "archive": upload}, format="multipart")
    assert resp.status_code == 403
    assert Submission.objects.count() == 0


def test_anonymous_upload_is_refused(demo_split, demo_zip):
    upload = io.BytesIO(demo_zip("agent-alpha"))
    upload.name = "x.zip"
    resp = APIClient().post("/api/v1/submissions/", {"system": "AliceBot", "archive": upload}, format="multipart")
    assert resp.status_code in (401, 403)


def test_private_submission_is_seen_by_its_team_only(api, make_user, demo_zip):
    upload = io.BytesIO(demo_zip("agent-alpha"))
    upload.name = "x.zip"
    resp = api.post("/api/v1/submissions/", {"system": "AliceBot", "archive": upload, "is_public": False},
                    format="multipart")
    pk = resp.json()["id"]
    assert api.get(f"/api/v1/submissions/{pk}/").status_code == 200
    assert APIClient().get(f"/api/v1/submissions/{pk}/").status_code == 404
    _, token = make_user("bob")
    bob = APIClient()
    bob.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert bob.get(f"/api/v1/submissions/{pk}/").status_code == 404


def test_form_shows_the_reason_and_stores_nothing(client, make_user, demo_split):
    user, _ = make_user("carol")
    from catalog.models import System

    System.objects.create(team=user.teams.get(), name="CarolBot")
    client.force_login(user)
    upload = io.BytesIO(_zip({"TodoList/../../x": b"x"}))
    upload.name = "bad.zip"
    resp = client.post("/submit/", {"system": System.objects.get(name="CarolBot").pk, "archive": upload})
    assert resp.status_code == 400
    assert b"escapes its folder" in resp.content
    assert Submission.objects.count() == 0


def test_unknown_top_level_folder_is_reported_after_extraction(api):
    from evaluation.pipeline import run_claim, run_extract

    resp = _post(api, _zip({"TodoList/start.sh": b"echo\n", "NotATask/start.sh": b"echo\n"}))
    sub = Submission.objects.get(pk=resp.json()["id"])
    run_extract(run=run_claim(run_id=sub.runs.get().pk))
    sub.refresh_from_db()
    assert any("NotATask" in w for w in sub.layout_warnings)
