"""Every list of the API is paged (issue 13, defect 8: the unpaged /api/v1/systems/ grew to 1 MB): {"count",
"next", "previous", "results"}, ?page= and ?page_size= (default PAGE_SIZE, at most API_MAX_PAGE_SIZE), and the
OpenAPI schema documents the paged shape and both parameters. A system's page lists its submissions a page at a
time."""
from __future__ import annotations

import re

import pytest
import yaml
from rest_framework.test import APIClient

from catalog.models import System, Team


@pytest.fixture
def many_systems(db):
    team = Team.objects.create(name="bulk")
    System.objects.bulk_create([System(team=team, name=f"Bot {n:03d}", name_skeleton=f"bot {n:03d}")
                                for n in range(120)])
    return team


def test_systems_come_in_pages_of_the_default_size_in_name_order(many_systems, settings):
    api = APIClient()
    first = api.get("/api/v1/systems/").json()
    assert set(first) == {"count", "next", "previous", "results"}
    assert first["count"] == 120 and len(first["results"]) == settings.REST_FRAMEWORK["PAGE_SIZE"] == 50
    assert first["previous"] is None and first["next"].endswith("/api/v1/systems/?page=2")
    assert [s["name"] for s in first["results"][:2]] == ["Bot 000", "Bot 001"]
    names = [s["name"] for s in first["results"]]
    url = first["next"]
    while url:
        page = api.get(url).json()
        names += [s["name"] for s in page["results"]]
        url = page["next"]
    assert names == [f"Bot {n:03d}" for n in range(120)]  # every system once, none twice


def test_a_page_size_is_chosen_up_to_the_maximum(many_systems, settings):
    api = APIClient()
    assert len(api.get("/api/v1/systems/?page_size=7").json()["results"]) == 7
    settings.API_MAX_PAGE_SIZE = 100
    assert len(api.get("/api/v1/systems/?page_size=100000").json()["results"]) == 100


def test_a_page_past_the_end_or_not_a_number_is_404_with_a_message(many_systems):
    for query in ["page=99", "page=abc"]:
        resp = APIClient().get(f"/api/v1/systems/?{query}")
        assert resp.status_code == 404 and "Invalid page" in resp.json()["detail"]


def test_submissions_and_published_results_are_paged_too(demo_split):
    from tests.factories import finished_submission

    for n in range(3):
        finished_submission(split=demo_split, system_name=f"Paged {n}", scores={"TodoList": (17, "passed", 1)})
    page = APIClient().get("/api/v1/submissions/?page_size=2").json()
    assert page["count"] == 3 and len(page["results"]) == 2 and page["next"]
    assert [s["system"] for s in page["results"]] == ["Paged 2", "Paged 1"]  # newest first
    assert set(APIClient().get("/api/v1/reported/").json()) == {"count", "next", "previous", "results"}


def test_the_schema_documents_the_paged_lists(client, db):
    schema = yaml.safe_load(client.get("/api/v1/schema/").content)
    for path, component in [("/api/v1/systems/", "PaginatedSystemList"),
                            ("/api/v1/submissions/", "PaginatedSubmissionOutputList"),
                            ("/api/v1/reported/", "PaginatedReportedResultOutputList")]:
        get = schema["paths"][path]["get"]
        assert get["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith(component)
        assert {"page", "page_size"} <= {p["name"] for p in get["parameters"]}
        props = schema["components"]["schemas"][component]["properties"]
        assert {"count", "next", "previous", "results"} <= set(props)


def test_a_systems_page_lists_its_submissions_a_page_at_a_time(demo_split, client, monkeypatch):
    from tests.factories import finished_submission

    monkeypatch.setattr("leaderboard.views.pages.PAGE_ROWS", 2)
    team = Team.objects.create(name="history")
    subs = [finished_submission(split=demo_split, system_name="Long History", team=team,
                                scores={"TodoList": (n, "tests_failed", 1)}) for n in range(3)]
    system = subs[0].system
    def listed(query: str = "") -> tuple[list[int], str]:
        """The submissions in the page's paged table (#submissions), and the page."""
        page = client.get(f"/systems/{system.pk}/{query}").content.decode()
        table = page[page.index('<table id="submissions">'):]
        table = table[:table.index("</table>")]
        return [int(n) for n in re.findall(r'href="/submissions/(\d+)/"', table)], page

    rows, first = listed()
    assert rows == [subs[2].pk, subs[1].pk]  # newest first
    assert "Submissions 1–2 of 3" in first and 'href="?page=2"' in first
    assert listed("?page=2")[0] == [subs[0].pk]
    assert client.get(f"/systems/{system.pk}/?page=zzz").status_code == 200  # a bad page number shows page 1
