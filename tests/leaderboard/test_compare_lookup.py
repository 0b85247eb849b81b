"""/compare/ finds a system whatever the letter case when only one system matches (`a=demo agent alpha` was a 404),
and answers an unknown language with 400 and the message, as /api/v1/compare/ does (it was a 404)."""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from catalog.models import System, Team
from tests.factories import finished_submission

STRONG = {"TodoList": (17, "passed", 1), "Notes": (15, "passed", 1)}
WEAK = {"TodoList": (3, "tests_failed", 1)}


@pytest.fixture
def pair(demo_split):
    finished_submission(split=demo_split, system_name="Demo Agent Alpha", scores=STRONG)
    finished_submission(split=demo_split, system_name="Demo Agent Beta", scores=WEAK)
    return demo_split


def test_a_name_in_another_letter_case_finds_the_one_system(client, pair):
    response = client.get("/compare/", {"a": "demo agent alpha", "b": "DEMO AGENT BETA"})
    assert response.status_code == 200
    assert response.context["data"]["a"]["system"] == "Demo Agent Alpha"
    assert response.context["data"]["b"]["system"] == "Demo Agent Beta"
    api = APIClient().get("/api/v1/compare/", {"a": "demo agent alpha", "b": "Demo Agent Beta"})
    assert api.status_code == 200 and api.json()["a"]["system"] == "Demo Agent Alpha"


def test_names_that_differ_only_in_case_are_never_guessed(client, pair):
    # two such names cannot be created through the site (look-alikes are refused); stored ones must not be guessed
    team = Team.objects.get(name="factory-team")
    System.objects.bulk_create([System(team=team, name="Twin Agent", name_skeleton="twin-1"),
                                System(team=team, name="TWIN AGENT", name_skeleton="twin-2")])
    response = client.get("/compare/", {"a": "twin agent", "b": "Demo Agent Beta"})
    assert response.status_code == 404
    assert "'TWIN AGENT', 'Twin Agent'" in response.context["error"]


def test_an_unknown_language_is_a_400_with_the_message_on_the_page_as_in_the_api(client, pair):
    query = {"a": "Demo Agent Alpha", "b": "Demo Agent Beta", "language": "rust"}
    page = client.get("/compare/", query)
    api = APIClient().get("/api/v1/compare/", query)
    assert page.status_code == api.status_code == 400
    assert "unknown language &#x27;rust&#x27;: use one of" in page.content.decode()
    assert 'name="a"' in page.content.decode()  # the pickers stay, to choose again
