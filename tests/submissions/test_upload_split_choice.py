"""The upload form says which benchmark and split an archive is scored on and lets the uploader choose among the
splits that take uploads (like the API's `benchmark` and `split` fields); the README's upload example names them."""
from __future__ import annotations

import html
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from catalog.models import Split
from catalog.services import system_create, team_for_user
from submissions.models import Submission
from tests.factories import zip_bytes

README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.fixture
def uploader(make_user, client, demo_split):
    user, _ = make_user("uploader")
    client.force_login(user)
    system = system_create(team=team_for_user(user=user), name="Uploader Bot")
    return system


@pytest.fixture
def splits(demo_split):
    """The demo benchmark's `verified` split plus an open `mini` split (two tasks) and a hidden one."""
    mini = Split.objects.create(benchmark=demo_split.benchmark, name="mini")
    mini.tasks.set(demo_split.tasks.order_by("name")[:2])
    hidden = Split.objects.create(benchmark=demo_split.benchmark, name="private", visibility="hidden")
    hidden.tasks.set(demo_split.tasks.all())
    return demo_split, mini, hidden


def _page(client, url="/submit/") -> str:
    resp = client.get(url)
    assert resp.status_code == 200
    return html.unescape(resp.content.decode())


def test_the_form_says_which_benchmark_and_split_the_upload_goes_to(uploader, client, demo_split):
    page = _page(client)
    assert "This upload is scored on" in page
    assert "benchmark demo" in page.replace("<code>", "").replace("</code>", "")
    assert f"split verified, {demo_split.tasks.count()} tasks" in page.replace("<code>", "").replace("</code>", "")


def test_the_form_offers_every_open_split_and_the_upload_goes_to_the_chosen_one(uploader, client, splits,
                                                                                demo_zip):
    verified, mini, hidden = splits
    page = _page(client)
    assert f'<option value="{verified.pk}" selected>demo / verified · 6 tasks</option>' in page
    assert f'<option value="{mini.pk}">demo / mini · 2 tasks</option>' in page
    assert f'value="{hidden.pk}"' not in page  # a hidden split takes no upload
    upload = SimpleUploadedFile("a.zip", demo_zip("agent-alpha"), content_type="application/zip")
    resp = client.post("/submit/", {"system": uploader.pk, "split": mini.pk, "archive": upload})
    assert resp.status_code == 302, resp.content
    assert Submission.objects.get().split == mini


def test_a_split_that_takes_no_upload_cannot_be_posted(uploader, client, splits, demo_zip):
    _, _, hidden = splits
    upload = SimpleUploadedFile("a.zip", demo_zip("agent-alpha"), content_type="application/zip")
    resp = client.post("/submit/", {"system": uploader.pk, "split": hidden.pk, "archive": upload})
    assert resp.status_code == 400 and not Submission.objects.exists()


def test_the_query_string_preselects_a_split_like_the_apis_fields(uploader, client, splits):
    _, mini, _ = splits
    page = _page(client, "/submit/?benchmark=demo&split=mini")
    assert f'<option value="{mini.pk}" selected>' in page
    assert "demo / mini" in page.split('id="upload-target"')[1].split("</p>")[0]
    page = _page(client, "/submit/?benchmark=demo&split=nope")
    assert "Benchmark 'demo' has no split 'nope': the form shows the site's default split instead." in page


def test_without_a_chosen_split_the_upload_goes_to_the_default_one(uploader, client, splits, demo_zip):
    upload = SimpleUploadedFile("a.zip", demo_zip("agent-alpha"), content_type="application/zip")
    assert client.post("/submit/", {"system": uploader.pk, "archive": upload}).status_code == 302
    assert Submission.objects.get().split == splits[0]


def test_an_archive_without_task_folders_is_told_a_task_of_its_own_split(uploader, client, splits):
    # TodoList is not in `mini`: the example names mini's first task by name, not a task of another split.
    _, mini, _ = splits
    upload = SimpleUploadedFile("flat.zip", zip_bytes({"start.sh": b"echo\n"}), content_type="application/zip")
    resp = client.post("/submit/", {"system": uploader.pk, "split": mini.pk, "archive": upload})
    page = html.unescape(resp.content.decode())
    first = mini.tasks.order_by("name").first().name
    assert resp.status_code == 400 and first != "TodoList"
    assert (f"The archive holds files but no task folder. Put each task's repository in a folder named exactly as "
            f"the task (e.g. {first}/start.sh).") in page
    assert "TodoList" not in page.split('id="upload-target"')[1]


def test_the_readme_upload_example_names_the_benchmark_and_split():
    text = README.read_text()
    example = text[text.index("-F system=MyAgent"):].split("/api/v1/submissions/")[0]
    assert "-F benchmark=" in example and "-F split=" in example
