"""The duplicate rule (issue 12 feature 10) compares what an archive unpacks to, not only its bytes: the break-it
pass uploaded another team's files zipped again at -9 (and a team could re-pack another team's published output),
and both were accepted as new rows. Real archives made by zip and tar, posted through the real API and form."""
from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest

from catalog.models import System
from core.engine.archive import inspect_archive
from submissions.models import Submission
from tests.factories import api_client_with_system, api_upload

ROOT = Path(__file__).resolve().parents[2]
ALPHA = ROOT / "benchmarks" / "demo-submissions" / "agent-alpha"
TASKS = sorted(p.name for p in ALPHA.iterdir() if p.is_dir())


def _pack(tmp_path: Path, name: str, *command: str, src: Path = ALPHA) -> bytes:
    """Run `command` (with {out} for the archive's path) in a copy of `src`; the archive's bytes."""
    work = tmp_path / f"src-{name}"
    if not work.exists():
        shutil.copytree(src, work)
    out = tmp_path / name
    subprocess.run([c.replace("{out}", str(out)) for c in command], cwd=work, check=True, capture_output=True)
    return out.read_bytes()


def zip9(tmp_path, **kw):
    return _pack(tmp_path, "nine.zip", "zip", "-9", "-q", "-r", "{out}", *TASKS, **kw)


def zip0(tmp_path, **kw):
    return _pack(tmp_path, "zero.zip", "zip", "-0", "-q", "-r", "{out}", *TASKS, **kw)


def targz(tmp_path, **kw):
    return _pack(tmp_path, "same.tar.gz", "tar", "czf", "{out}", *TASKS, **kw)


@pytest.fixture
def alice(make_user, demo_split):
    return api_client_with_system(make_user, "alice", "AliceBot")


def test_the_content_digest_is_the_same_for_the_same_files_however_packed(tmp_path):
    archives = {"zip -9": zip9(tmp_path), "zip -0": zip0(tmp_path), "tar czf": targz(tmp_path)}
    assert len(set(archives.values())) == 3  # three different files
    wrapped = tmp_path / "wrapped"
    (wrapped / "run-1").mkdir(parents=True)
    for task in TASKS:
        shutil.copytree(ALPHA / task, wrapped / "run-1" / task)
    archives["wrapped"] = _pack(tmp_path, "wrapped.zip", "zip", "-q", "-r", "{out}", "run-1", src=wrapped)
    digests = {}
    for label, data in archives.items():
        path = tmp_path / ("check.tar.gz" if label == "tar czf" else "check.zip")
        path.write_bytes(data)
        digests[label] = inspect_archive(path, task_names=TASKS, content_sha256=True).content_sha256
        assert inspect_archive(path, task_names=TASKS).content_sha256 == ""  # only when asked for
    assert len(set(digests.values())) == 1 and len(digests["zip -9"]) == 64, digests

    changed = tmp_path / "changed"
    shutil.copytree(ALPHA, changed)
    first = next(p for p in sorted(changed.rglob("*")) if p.is_file())
    first.write_bytes(first.read_bytes() + b"\n")
    path = tmp_path / "changed.zip"
    path.write_bytes(_pack(tmp_path, "c.zip", "zip", "-9", "-q", "-r", "{out}", *TASKS, src=changed))
    assert inspect_archive(path, task_names=TASKS, content_sha256=True).content_sha256 != digests["zip -9"]
    renamed = tmp_path / "renamed"
    shutil.copytree(ALPHA, renamed)
    first = next(p for p in sorted(renamed.rglob("*")) if p.is_file())
    first.rename(first.with_name(first.name + ".bak"))
    path.write_bytes(_pack(tmp_path, "r.zip", "zip", "-9", "-q", "-r", "{out}", *TASKS, src=renamed))
    assert inspect_archive(path, task_names=TASKS, content_sha256=True).content_sha256 != digests["zip -9"]


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
