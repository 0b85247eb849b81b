"""Defects of the pages found by a researcher's walk through the site (issue 12): READMEs rendered the way GitHub
does, the submission note and the way back to its system, a refused system form answering 400."""
from __future__ import annotations

from catalog.models import System
from tests.factories import finished_submission


def test_a_readme_list_right_after_a_paragraph_renders_as_a_list(client, demo_split):
    page = client.get("/tasks/Bookstore/").content.decode()
    # GitHub (CommonMark) starts a list right after "Add a book."; Python-Markdown ran the lines together.
    assert "<p>Add a book.</p>\n<ul>\n<li>Request: <code>" in page


def test_raw_html_in_a_readme_is_shown_as_text(client, demo_split):
    task = demo_split.tasks.get(name="Bookstore")
    task.readme = "# T\n<script>alert(1)</script>\n\nPaths like `/items/<id>` and <b>bold</b>.\n\n" \
                  "| a | b |\n|---|---|\n| 1 | 2 |\n\n[x](javascript:alert(1))\n"
    task.save(update_fields=["readme"])
    page = client.get("/tasks/Bookstore/").content.decode()
    readme = page.split('<div class="readme">', 1)[1]
    assert "<script>alert(1)" not in readme and "&lt;script&gt;alert(1)&lt;/script&gt;" in readme
    assert "<code>/items/&lt;id&gt;</code>" in readme and "&lt;b&gt;bold&lt;/b&gt;" in readme
    assert "<table>" in readme and "<td>1</td>" in readme  # GFM tables
    assert 'href="javascript' not in readme


def test_the_submission_page_shows_the_note_and_links_back_to_its_system(client, demo_split):
    submission = finished_submission(split=demo_split, system_name="Noted Agent", scores={"TodoList": (5, "passed", 1)})
    submission.note = "temperature 0.2, <b>second</b> try"
    submission.save(update_fields=["note"])
    page = client.get(f"/submissions/{submission.pk}/").content.decode()
    assert "temperature 0.2, &lt;b&gt;second&lt;/b&gt; try" in page
    system = System.objects.get(name="Noted Agent")
    assert f'href="/systems/{system.pk}/"' in page


def test_the_api_gives_the_submission_note(client, demo_split):
    submission = finished_submission(split=demo_split, system_name="Noted Agent", scores={})
    submission.note = "ablation: no retrieval"
    submission.save(update_fields=["note"])
    assert client.get(f"/api/v1/submissions/{submission.pk}/").json()["note"] == "ablation: no retrieval"


def test_a_system_form_that_fails_validation_answers_400(client, make_user):
    user, _ = make_user("dora")
    client.force_login(user)
    assert client.post("/systems/new/", {"name": "", "type": "agent"}).status_code == 400
    assert client.post("/systems/new/", {"name": "Good Name", "type": "agent", "url": "not a url"}).status_code == 400
    System.objects.create(team=user.teams.get(), name="Taken")
    resp = client.post("/systems/new/", {"name": "taken", "type": "agent"})
    assert resp.status_code == 400 and "already exists" in resp.content.decode()
    assert client.get("/systems/new/").status_code == 200
