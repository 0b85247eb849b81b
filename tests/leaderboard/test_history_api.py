"""A system's history in the API (issue 12, feature 9, "every feature on pages and in the API"): the system page
showed every finished public submission over time and which one is ranked and why; /api/v1/systems/<ref>/history/
gives the same points (leaderboard.history.system_history), without the chart."""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from catalog.models import System
from tests.factories import finished_submission

pytestmark = pytest.mark.django_db


def test_the_api_gives_every_finished_public_submission_and_which_is_ranked(demo_split):
    first = finished_submission(split=demo_split, system_name="Climber", scores={"TodoList": (10, "tests_failed", 1)})
    second = finished_submission(split=demo_split, system_name="Climber", scores={"TodoList": (17, "passed", 1)})
    second.note = "with retrieval"
    second.save(update_fields=["note"])
    private = finished_submission(split=demo_split, system_name="Climber", scores={"TodoList": (17, "passed", 1)},
                                  is_public=False)
    system = System.objects.get(name="Climber")

    by_name = APIClient().get("/api/v1/systems/Climber/history/")
    by_id = APIClient().get(f"/api/v1/systems/{system.pk}/history/")

    assert by_name.status_code == 200, by_name.content
    assert by_id.json() == by_name.json()
    data = by_name.json()
    assert data["system"] == "Climber" and data["system_id"] == system.pk
    [split] = data["splits"]
    assert (split["benchmark"], split["split"], split["rank"]) == ("demo", "verified", 1)
    points = split["points"]
    assert [p["submission"] for p in points] == [first.pk, second.pk]  # oldest first, the private one absent
    assert private.pk not in {p["submission"] for p in points}
    assert [p["ranked"] for p in points] == [False, True] and split["ranked"]["submission"] == second.pk
    assert points[1]["why"] == "ranked #1 in Overall: the system's latest finished public submission"
    assert points[0]["why"] == f"not ranked: superseded by the later submission #{second.pk}"
    assert points[1]["note"] == "with retrieval" and points[1]["pass_at_1"] > points[0]["pass_at_1"]
    assert len(points[1]["pass_at_1_ci"]) == 2 and points[1]["finished_at"] and points[1]["benchmark_version"]
    assert "figure" not in split


def test_an_unknown_system_is_a_404_naming_it(demo_split):
    response = APIClient().get("/api/v1/systems/Nobody/history/")

    assert response.status_code == 404 and "Nobody" in response.content.decode()
