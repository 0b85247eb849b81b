"""The daily quota holds under concurrency (issue 13): uploads that arrive at the same moment for a team with one
submission left are counted one after another, so exactly one is accepted and every other one gets the 429 with
its reason. Real database (SQLite's write lock, or PostgreSQL's row lock on the team), real threads, each with its
own connection, through the API a submitter uses."""
from __future__ import annotations

import threading

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from rest_framework.test import APIClient

from catalog.models import Split
from catalog.services import system_create, team_for_user
from evaluation.services import submission_create
from submissions.models import Submission
from tests.conftest import import_demo

UPLOADERS = 6


@pytest.mark.django_db(transaction=True)  # every uploading thread commits through its own connection
def test_simultaneous_uploads_at_the_limit_accept_exactly_one(make_user, demo_zip, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.EVALUATION_WORK_ROOT = tmp_path / "work"
    settings.SUBMISSION_DAILY_QUOTA = 3
    import_demo()  # a transactional test starts from an emptied database on PostgreSQL
    split = Split.objects.get(benchmark__name="demo", benchmark__is_current=True, name="verified")
    user, token = make_user("racer")
    system = system_create(team=team_for_user(user=user), name="Racer Agent")
    archive = demo_zip("agent-alpha")
    for _ in range(2):  # 2 of 3 used: one left
        submission_create(system=system, split=split, user=user, enqueue=False,
                          upload=SimpleUploadedFile("alpha.zip", archive, content_type="application/zip"))

    start = threading.Barrier(UPLOADERS)
    answers: list[tuple[int, dict]] = []

    def upload():
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        body = {"system": "Racer Agent", "archive": SimpleUploadedFile("alpha.zip", archive,
                                                                       content_type="application/zip")}
        try:
            start.wait(timeout=60)
            resp = api.post("/api/v1/submissions/", body)
            answers.append((resp.status_code, resp.json()))
        finally:
            connection.close()

    threads = [threading.Thread(target=upload) for _ in range(UPLOADERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    statuses = sorted(code for code, _ in answers)
    assert statuses == [201] + [429] * (UPLOADERS - 1), answers
    for code, body in answers:
        if code == 429:
            assert "0 of 3 submissions left today, next one tomorrow (" in body["detail"]
            assert body["quota"]["used"] == 3 and body["quota"]["remaining"] == 0
    assert Submission.objects.filter(system=system).count() == 3
