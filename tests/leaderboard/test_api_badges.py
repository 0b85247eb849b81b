"""The leaderboard API's rows carry the badges the board page and the exports show (issue 12, feature 8: every
feature on pages and in the API), given by the one rule of leaderboard.badges, and the cached answer served before
DRF (leaderboard.page_cache) carries them and follows a change at once."""
from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from catalog.models import ReportedResult, System, Team
from catalog.services import reported_result_verify
from submissions.models import Submission
from tests.factories import finished_submission
from tests.leaderboard.test_reported import TWO_ROWS, import_reported, write_source

ALL = {"TodoList": (17, "passed", 1), "Notes": (15, "passed", 1), "Bookstore": (18, "passed", 1),
       "Tic-Tac-Toe": (12, "passed", 1), "UserManagement_2": (14, "passed", 1), "InventoryService": (15, "passed", 1)}
URL = "/api/v1/leaderboard/?language=python"


@pytest.fixture
def board(demo_split, tmp_path):
    """A verified row with every other badge (open source, agent endpoint), a plain verified row, the oracle, and
    a published row an admin verified (ranked in the Python view) next to one that is not (shown apart)."""
    cache.clear()
    finished_submission(split=demo_split, system_name="Strong", scores=ALL)
    System.objects.filter(name="Strong").update(source_url="https://github.com/example/strong")
    Submission.objects.filter(system__name="Strong").update(source=Submission.Source.ENDPOINT)
    finished_submission(split=demo_split, system_name="Plain", scores={"TodoList": (17, "passed", 1)})
    platform = Team.objects.create(name="platform")
    System.objects.create(team=platform, name="References", type=System.Type.REFERENCE)
    finished_submission(split=demo_split, system_name="References", scores=ALL, team=platform)
    import_reported(write_source(tmp_path, TWO_ROWS))
    admin = User.objects.create_superuser("root", password="pw-Root-Secure-123")
    reported_result_verify(result=ReportedResult.objects.get(system="Paper Bot"), user=admin)  # bumps the version
    return demo_split


def _page_badges(client, language: str) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """{system name: badge keys} of the ranked rows and of the oracle rows of the board page's `language` panel, in
    the order the page shows them."""
    panel = client.get(f"/?language={language}").content.decode().split(f'id="panel-{language}"', 1)[1]
    panel = panel.split("</section>", 1)[0]
    ranked, _, rest = panel.partition('class="oracle"')

    def rows(html: str) -> dict[str, list[str]]:
        found = {}
        for row in re.findall(r"<tr>(.*?)</tr>", html, flags=re.S):
            name = re.search(r'<td><a href="[^"]*">([^<]+)</a>', row)
            if name:
                found[name.group(1)] = re.findall(r'class="rowbadge rowbadge-([a-z-]+)"', row)
        return found

    return rows(ranked), rows(rest.split("</table>", 1)[0])


def test_each_api_row_has_the_badges_of_its_page_row_and_of_its_export_row(board, client):
    api = APIClient().get(URL).json()
    export = {r["submission"]: r for r in APIClient().get("/api/v1/export/board.json").json()["rows"]}
    page_rows, page_oracle = _page_badges(client, "python")

    rows = {r["system"]: r for r in api["rows"]}
    assert set(rows) == {"Strong", "Plain", "Paper Bot"}
    assert rows["Strong"]["badges"] == ["verified", "agent-endpoint", "open-source"]
    assert rows["Strong"]["source_url"] == "https://github.com/example/strong"
    # Plain's archive held TodoList only: the other tasks are missing (scored 0), and the row says so
    assert rows["Plain"]["badges"] == ["verified", "partial"] and rows["Plain"]["source_url"] == ""
    assert rows["Paper Bot"]["origin"] == "reported" and rows["Paper Bot"]["badges"] == ["reported"]
    assert rows["Paper Bot"]["source_url"] == "https://example.org/results"  # what its badge links to
    for name in ("Strong", "Plain"):  # evaluated here: the same as the page's row and board.json's
        row = rows[name]
        assert row["badges"] == page_rows[name] == export[row["submission"]]["badges"], name
        assert row["source_url"] == export[row["submission"]]["source_url"], name
    page_reported = next(badges for label, badges in page_rows.items() if label.startswith("Paper Bot"))
    assert rows["Paper Bot"]["badges"] == page_reported

    [oracle] = api["oracle"]
    assert oracle["badges"] == ["oracle", "verified"] == page_oracle["References"]
    assert oracle["badges"] == export[oracle["submission"]]["badges"] and oracle["source_url"] == ""
    assert {r["system"]: r["badges"] for r in api["reported"]} == {"Odd Bot": ["reported"]}


def test_the_cached_answer_has_the_badges_and_a_changed_badge_shows_at_once(board, client):
    first = client.get(URL)
    with CaptureQueriesContext(connection) as ctx:
        again = client.get(URL)
    assert len(ctx.captured_queries) == 1  # the board version: answered by leaderboard.page_cache
    assert again.content == first.content
    assert {r["system"]: r["badges"] for r in again.json()["rows"]}["Plain"] == ["verified", "partial"]

    plain = System.objects.get(name="Plain")
    plain.source_url = "https://github.com/example/plain"
    plain.save()  # a system's save bumps the board version
    rows = {r["system"]: r for r in client.get(URL).json()["rows"]}
    assert rows["Plain"]["badges"] == ["verified", "partial", "open-source"]
    assert rows["Plain"]["source_url"] == "https://github.com/example/plain"
    assert _page_badges(client, "python")[0]["Plain"] == ["verified", "partial", "open-source"]


def test_a_partial_submissions_row_says_how_many_tasks_it_held(board, client):
    """A fresh-user pass: a 1-task upload queued with the others missing went to #1 of the public board with
    nothing saying it held one task. Its row has the `partial` badge, whose tooltip counts the tasks."""
    from catalog.models import Split

    tasks = Split.objects.get(pk=board.pk).tasks.count()
    page = client.get("/?language=overall").content.decode()
    plain = next(row for row in re.findall(r"<tr>(.*?)</tr>", page, flags=re.S) if ">Plain<" in row)
    assert f"partial: 1 of {tasks} tasks submitted; the {tasks - 1} missing score 0 in every mean" in plain
    strong = next(row for row in re.findall(r"<tr>(.*?)</tr>", page, flags=re.S) if ">Strong<" in row)
    assert "rowbadge-partial" not in strong  # every task of the split
