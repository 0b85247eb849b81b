"""An archive member whose path the worker could not write (over 3072 bytes: PATH_MAX 4096 less the evaluator's
folders) is refused at upload with a 400 naming the path, shortened, and the limits, instead of being accepted and
failing in the worker; a path at the limit is unpacked."""
from __future__ import annotations

import io
import tarfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from core.engine.archive import MEMBER_PATH_MAX_BYTES, extract_archive
from submissions.models import Submission
from tests.factories import zip_bytes

DEEP = "/".join(["d" * 200] * 21)  # 4220 bytes of folders, each name within the 255-byte limit
LONG = f"TodoList/{DEEP}/f.txt"


def _tar(entries: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", format=tarfile.GNU_FORMAT) as tf:
        for name, data in entries.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


@pytest.fixture
def api(make_user, demo_split):
    user, token = make_user("deep")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.post("/api/v1/systems/", {"name": "DeepBot"}, format="json").status_code == 201
    return client


@pytest.mark.parametrize("pack, filename", [(zip_bytes, "sub.zip"), (_tar, "sub.tar.gz")])
def test_a_path_too_long_to_unpack_is_refused_at_upload_with_the_path_and_the_limits(api, pack, filename):
    data = pack({"TodoList/start.sh": b"echo\n", LONG: b"x"})
    resp = api.post("/api/v1/submissions/", {"system": "DeepBot", "archive": SimpleUploadedFile(filename, data)},
                    format="multipart")
    assert resp.status_code == 400, resp.content
    detail = resp.json()["detail"]
    assert f"a path of {len(LONG)} bytes ('TodoList/ddd" in detail and "…" in detail and "/f.txt')" in detail
    assert f"at most {MEMBER_PATH_MAX_BYTES} bytes" in detail and "4096" in detail and "255 bytes" in detail
    assert len(detail) < 1000  # the path is shortened, not quoted whole
    assert not Submission.objects.exists()


def test_the_web_form_refuses_it_too(make_user, client, demo_split):
    from catalog.services import system_create, team_for_user

    user, _ = make_user("former")
    client.force_login(user)
    system = system_create(team=team_for_user(user=user), name="Former Bot")
    upload = SimpleUploadedFile("sub.zip", zip_bytes({"TodoList/start.sh": b"echo\n", LONG: b"x"}))
    resp = client.post("/submit/", {"system": system.pk, "archive": upload})
    assert resp.status_code == 400 and f"a path of {len(LONG)} bytes" in resp.content.decode()
    assert not Submission.objects.exists()


def test_a_path_at_the_limit_is_unpacked_by_the_worker(tmp_path):
    head = "TodoList/"
    tail = "/f.txt"
    folders, left = [], MEMBER_PATH_MAX_BYTES - len(head) - len(tail)
    while left > 0:
        part = "d" * min(200, left)
        left -= len(part) + 1
        folders.append(part)
    path = head + "/".join(folders)[:MEMBER_PATH_MAX_BYTES - len(head) - len(tail)].rstrip("/") + tail
    assert len(path) <= MEMBER_PATH_MAX_BYTES and len(path) > MEMBER_PATH_MAX_BYTES - 10
    archive = tmp_path / "sub.zip"
    archive.write_bytes(zip_bytes({"TodoList/start.sh": b"echo\n", path: b"x"}))
    extract_archive(archive, tmp_path / "runs" / "1", task_names=["TodoList"])
    assert (tmp_path / "runs" / "1" / path).read_bytes() == b"x"
