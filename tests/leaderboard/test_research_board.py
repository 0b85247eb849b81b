"""Sort and filter the board (by metric columns, type, framework, base model, name, open source, date range), kept in the URL
query string so a filtered view can be linked; the same parameters on /api/v1/leaderboard/."""
from __future__ import annotations

import datetime as dt

import pytest
from rest_framework.test import APIClient

from catalog.models import System, Team
from leaderboard.research import BoardQuery, board_query
from submissions.models import Submission
from tests.factories import finished_submission

SYSTEMS = [  # name, type, framework, base model, scores, submitted
    ("Alpha", "agent", "OpenHands", "gpt-x", {"TodoList": (17, "passed", 1), "Notes": (15, "passed", 1)}, "2026-01-10"),
    ("Beta", "ide", "Cursor", "claude-y", {"TodoList": (17, "passed", 1), "Bookstore": (18, "passed", 1),
                                            "Notes": (2, "tests_failed", 1)}, "2026-02-10"),
    ("Gamma", "agent", "MetaGPT", "gpt-x", {"Notes": (5, "tests_failed", 0 + 1)}, "2026-03-10"),
]


@pytest.fixture
def board(demo_split):
    team = Team.objects.create(name="filters")
    for name, kind, framework, model, scores, day in SYSTEMS:
        System.objects.create(team=team, name=name, type=kind, agent_framework=framework, base_model=model)
        sub = finished_submission(split=demo_split, system_name=name, scores=scores, team=team)
        Submission.objects.filter(pk=sub.pk).update(
            created_at=dt.datetime.fromisoformat(day).replace(tzinfo=dt.timezone.utc))
    return demo_split


def _names(params: dict) -> list[str]:
    response = APIClient().get("/api/v1/leaderboard/", {"language": "python", **params})
    assert response.status_code == 200, response.content
    return [r["system"] for r in response.json()["rows"]]


def test_the_query_string_reads_back_what_it_wrote():
    query = board_query({"sort": "dsr", "order": "asc", "type": "agent", "since": "2026-01-01", "q": "al"})
    assert query == BoardQuery(sort="dsr", descending=False, type="agent", search="al",
                               since=dt.date(2026, 1, 1))
    assert board_query(query.as_params()) == query
    assert board_query({}).is_default and board_query({"sort": "pass_at_1"}).descending
    for bad in ({"sort": "karma"}, {"order": "sideways"}, {"since": "10/01/2026"}):
        with pytest.raises(ValueError):
            board_query(bad)


def test_api_filters_and_sorts_keeping_the_board_ranks(board):
    assert _names({}) == ["Beta", "Alpha", "Gamma"]
    assert _names({"type": "agent"}) == ["Alpha", "Gamma"]
    assert _names({"framework": "cursor"}) == ["Beta"]
    assert _names({"base_model": "gpt-x", "since": "2026-02-01"}) == ["Gamma"]
    assert _names({"until": "2026-02-10"}) == ["Beta", "Alpha"]
    assert _names({"q": "ALP"}) == ["Alpha"]
    assert _names({"sort": "date"}) == ["Gamma", "Beta", "Alpha"]
    assert _names({"sort": "system", "order": "desc"}) == ["Gamma", "Beta", "Alpha"]
    assert _names({"sort": "pass_at_1", "order": "asc"}) == ["Gamma", "Alpha", "Beta"]
    ranks = {r["system"]: r["rank"] for r in APIClient().get(
        "/api/v1/leaderboard/", {"language": "python", "type": "agent"}).json()["rows"]}
    assert ranks == {"Alpha": 2, "Gamma": 3}
    assert APIClient().get("/api/v1/leaderboard/", {"sort": "karma"}).status_code == 400
    assert APIClient().get("/api/v1/leaderboard/", {"since": "yesterday"}).status_code == 400


def test_the_page_filters_in_the_url_and_links_sorted_columns(client, board):
    response = client.get("/", {"language": "python", "type": "agent", "sort": "pass_at_1"})
    html = response.content.decode()
    python = next(v for v in response.context["views"] if v["key"] == "python")

    assert [r.system.name for r in python["rows"]] == ["Alpha", "Gamma"] and python["hidden"] == 1
    assert "1 row hidden by the filters" in html and 'id="board-filters" open' in html
    assert 'href="?language=python&amp;type=agent&amp;sort=pass_at_1&amp;order=asc"' in html  # flips the order
    assert 'href="?language=python&amp;type=agent&amp;sort=dsr"' in html
    bad = client.get("/", {"since": "not-a-date"})
    assert bad.status_code == 200 and "since must be a date" in bad.content.decode()


def test_the_board_filters_open_source_systems(board):
    System.objects.filter(name="Gamma").update(source_url="https://git.example.org/gamma")

    assert _names({"open_source": "yes"}) == ["Gamma"]
    assert _names({"open_source": "no"}) == ["Beta", "Alpha"]
    assert board_query({"open_source": "yes"}).as_params() == {"open_source": "yes"}
    response = APIClient().get("/api/v1/leaderboard/", {"open_source": "maybe"})
    assert response.status_code == 400 and "use yes or no" in response.content.decode()
