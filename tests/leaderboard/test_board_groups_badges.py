"""Significance groups, badges and a system's history on the board (issue 12, features 4, 8 and 9)."""
from __future__ import annotations

import csv
import io

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

import leaderboard.significance as significance
from catalog.models import System, Team
from core.grading.bootstrap import paired_difference_interval
from leaderboard.selectors import leaderboard_rows
from submissions.models import Submission
from tests.factories import finished_submission

ALL = {"TodoList": (17, "passed", 1), "Notes": (15, "passed", 1), "Bookstore": (18, "passed", 1),
       "Tic-Tac-Toe": (12, "passed", 1), "UserManagement_2": (14, "passed", 1), "InventoryService": (15, "passed", 1)}


@pytest.fixture
def board(demo_split):
    """Four systems: two strong ones close to each other, a middling one, one that solves nothing."""
    cache.clear()
    finished_submission(split=demo_split, system_name="Strong", scores=ALL)
    finished_submission(split=demo_split, system_name="Close", scores={**ALL, "Notes": (14, "tests_failed", 1)})
    finished_submission(split=demo_split, system_name="Middling", scores={
        "TodoList": (17, "passed", 1), "Notes": (7, "tests_failed", 1), "Bookstore": (9, "tests_failed", 1)})
    finished_submission(split=demo_split, system_name="Nothing", scores={})
    return demo_split


def _per_task(row, split):
    names = sorted(t.name for t in split.tasks.all() if not t.is_excluded)
    results = {r.task.name: r.pass_at_1 for r in row.run.results.all()}
    return [results.get(n, 0.0) for n in names]


def test_each_rows_group_is_the_rows_its_paired_interval_does_not_separate(board):
    rows = leaderboard_rows(split=board, language="overall")
    assert [r.label for r in rows] == ["Strong", "Close", "Middling", "Nothing"]
    for row in rows:
        for other in rows:
            lo, hi = paired_difference_interval(_per_task(row, board), _per_task(other, board))
            assert (other.label in row.significance["systems"]) == (lo <= 0 <= hi), (row.label, other.label)
    strong, close = rows[0], rows[1]
    assert close.label in strong.significance["systems"] and close.tied_with_leader
    assert "Nothing" not in strong.significance["systems"]
    assert strong.significance["position"] == 1 and close.significance["position"] == 2


def test_groups_are_computed_once_per_set_of_results_and_cached(board, client, monkeypatch):
    calls = []
    real = significance.significance_groups
    monkeypatch.setattr(significance, "significance_groups",
                        lambda rows, **kw: calls.append(len(rows)) or real(rows, **kw))
    assert client.get("/").status_code == 200
    first = len(calls)
    assert first >= 1  # each view with rows grouped once
    assert client.get("/").status_code == 200
    assert client.get("/api/v1/leaderboard/", {"language": "overall"}).status_code == 200
    assert len(calls) == first  # read from the cache, not recomputed per request
    finished_submission(split=board, system_name="Newcomer", scores={"TodoList": (17, "passed", 1)})
    assert client.get("/").status_code == 200
    assert len(calls) > first  # a new result changes the ranked rows, so the key


def test_the_board_shows_each_rows_band(board, client):
    page = client.get("/?language=overall").content.decode()
    panel = page.split('id="panel-overall"', 1)[1].split("</table>", 1)[0]
    assert panel.count('class="band"') == 4
    assert 'data-group="1 2"' in panel  # Strong's band: itself and Close
    assert "not significantly different from #2 Close" in panel


def test_the_api_and_the_exports_carry_the_groups(board):
    api = APIClient()
    rows = api.get("/api/v1/leaderboard/", {"language": "overall"}).json()
    rows = rows["results"] if isinstance(rows, dict) and "results" in rows else rows
    first = rows[0] if isinstance(rows, list) else rows["rows"][0]
    assert first["significance_group"] == {"ranks": [1, 2], "systems": ["Strong", "Close"]}
    export = api.get("/api/v1/export/board.json").json()
    strong = next(r for r in export["rows"] if r["system"] == "Strong")
    assert strong["views"]["overall"]["significance_group"]["systems"] == ["Strong", "Close"]
    assert strong["badges"] == ["verified"]
    text = api.get("/api/v1/export/board.csv").content.decode()
    lines = list(csv.DictReader(io.StringIO(text)))
    line = next(r for r in lines if r["system"] == "Strong")
    close = next(r for r in lines if r["system"] == "Close")
    assert line["overall_group"] == f"{line['submission']};{close['submission']}" and line["badges"] == "verified"
    assert strong["views"]["overall"]["significance_group"]["submissions"] == [int(line["submission"]),
                                                                             int(close["submission"])]
    header = text.splitlines()[0].split(",")
    assert header[-5:] == ["python_group", "java_group", "overall_group", "badges", "source_url"]


def test_badges_say_where_a_row_comes_from(board, client):
    strong = System.objects.get(name="Strong")
    strong.source_url = "https://github.com/example/strong"
    strong.save()
    Submission.objects.filter(system__name="Close").update(source=Submission.Source.ENDPOINT)
    reference = System.objects.create(team=Team.objects.create(name="platform"), name="References",
                                      type=System.Type.REFERENCE)
    finished_submission(split=board, system_name=reference.name, scores=ALL, team=reference.team)
    cache.clear()
    page = client.get("/?language=overall").content.decode()
    ranked = page.split('id="panel-overall"', 1)[1].split("</table>", 1)[0]
    assert ranked.count("rowbadge-verified") == 4 and "References" not in ranked  # the oracle is never ranked
    assert 'href="https://github.com/example/strong"' in ranked and ">open source<" in ranked
    assert ranked.count(">agent endpoint<") == 1
    oracle = page.split('id="panel-overall"', 1)[1].split('class="oracle"', 1)[1].split("</table>", 1)[0]
    assert "References" in oracle and ">oracle<" in oracle
    export = APIClient().get("/api/v1/export/board.json").json()
    assert next(r for r in export["rows"] if r["system"] == "References")["badges"] == ["oracle", "verified"]
    assert next(r for r in export["rows"] if r["system"] == "Strong")["source_url"].endswith("/strong")


def test_a_system_is_created_with_its_source_code_url(make_user):
    _, token = make_user("olga")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    resp = api.post("/api/v1/systems/", {"name": "Open Agent", "source_url": "https://github.com/o/agent"},
                    format="json")
    assert resp.status_code == 201 and resp.json()["source_url"] == "https://github.com/o/agent"
    assert System.objects.get(name="Open Agent").is_open_source
    bad = api.post("/api/v1/systems/", {"name": "Other Agent", "source_url": "not a url"}, format="json")
    assert bad.status_code == 400 and "source_url" in bad.json()


def test_a_systems_history_shows_every_finished_public_submission_and_which_is_ranked(demo_split, client):
    first = finished_submission(split=demo_split, system_name="Climber", scores={"TodoList": (10, "tests_failed", 1)})
    second = finished_submission(split=demo_split, system_name="Climber", scores={"TodoList": (17, "passed", 1)})
    second.note = "with retrieval"
    second.save(update_fields=["note"])
    private = finished_submission(split=demo_split, system_name="Climber", scores=ALL, is_public=False)
    system = System.objects.get(name="Climber")
    page = client.get(f"/systems/{system.pk}/").content.decode()
    history = page.split('id="history"', 1)[1].split("</table>", 1)[0]
    assert f"#{first.pk}" in history and f"#{second.pk}" in history and f"#{private.pk}<" not in history
    assert "ranked #1 in Overall: the system&#x27;s latest finished public submission" in history
    assert f"not ranked: superseded by the later submission #{second.pk}" in history
    assert "with retrieval" in history
    assert 'data-plot="fig-history-1"' in history and 'id="fig-history-1"' in page
