"""Task difficulty and discrimination (docs/scoring.md "Task difficulty and discrimination") on /tasks/, each task
page and /api/v1/tasks/, and the task x system matrix (/matrix/, /api/v1/matrix/)."""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from core.grading.metrics import MIN_LABELLED_SYSTEMS, task_difficulty
from tests.factories import finished_submission

A = {"TodoList": (17, "passed", 1), "Notes": (15, "passed", 1), "InventoryService": (15, "passed", 1)}
B = {"TodoList": (17, "passed", 1), "Notes": (5, "tests_failed", 1), "Bookstore": (9, "tests_failed", 1)}
C = {"TodoList": (17, "passed", 1), "Notes": (10, "tests_failed", 1)}


@pytest.mark.parametrize("pass_values, solved, label", [
    ([1.0, 1.0, 1.0], [1, 1, 1], "saturated"),
    ([0.0, 0.5, 0.1], [0, 0, 0], "never solved"),
    ([1.0, 0.2, 0.0], [1, 0, 0], "discriminating"),
    ([1.0] * 9 + [0.5], [1] * 9 + [0], "saturated"),  # 90% solve it
    ([1.0], [1], None),  # fewer than MIN_LABELLED_SYSTEMS (3): one solving system made it "saturated"
    ([1.0, 0.0], [1, 0], None),
    ([], [], None),
])
def test_the_label_follows_the_documented_rule(pass_values, solved, label):
    assert task_difficulty(pass_values=pass_values, solved_values=solved).label == label


def test_spread_is_the_population_standard_deviation():
    d = task_difficulty(pass_values=[1.0, 0.0], solved_values=[1, 0])
    assert (d.systems, d.solved_share, d.mean_pass_at_1, d.spread) == (2, 0.5, 0.5, 0.5)
    with pytest.raises(ValueError):
        task_difficulty(pass_values=[1.0], solved_values=[])


@pytest.fixture
def seeded(demo_split):
    finished_submission(split=demo_split, system_name="Sys A", scores=A)
    finished_submission(split=demo_split, system_name="Sys B", scores=B)
    return demo_split


def test_tasks_page_task_page_and_api_show_difficulty(client, seeded):
    finished_submission(split=seeded, system_name="Sys C", scores=C)  # the third ranked system: labels from here
    api = {t["name"]: t["health"]["difficulty"] for t in APIClient().get("/api/v1/tasks/").json()["tasks"]}
    html = client.get("/tasks/").content.decode()
    page = client.get("/tasks/Notes/").content.decode()

    assert api["TodoList"]["label"] == "saturated" and api["TodoList"]["spread"] == 0.0
    assert api["Notes"]["label"] == "discriminating" and api["Notes"]["mean_pass_at_1"] == pytest.approx(30 / 45)
    assert api["Bookstore"]["label"] == "never solved" and api["Bookstore"]["solved_share"] == 0.0
    assert "never solved" in html and "discriminating" in html and "saturated" in html
    assert 'id="difficulty"' in page and "discriminating" in page and "spread 0.27 over 3 ranked systems" in page


def _difficulty_cell(page: str) -> str:
    """The text of the task page's Difficulty cell up to its explanation."""
    return page.split('id="difficulty">', 1)[1].split("<br>", 1)[0]


def test_fewer_than_three_ranked_systems_give_a_task_no_difficulty_label(client, demo_split):
    # One ranked system solving TodoList made it "saturated · mean Pass@1 100.0%, spread 0.00 over 1 ranked system".
    assert MIN_LABELLED_SYSTEMS == 3
    for systems, (name, scores) in enumerate((("Only One", A), ("Second", B)), start=1):
        finished_submission(split=demo_split, system_name=name, scores=scores)
        api = {t["name"]: t["health"]["difficulty"] for t in APIClient().get("/api/v1/tasks/").json()["tasks"]}
        html = client.get("/tasks/").content.decode()
        cell = _difficulty_cell(client.get("/tasks/TodoList/").content.decode())

        assert api["TodoList"]["label"] is None and api["TodoList"]["systems"] == systems
        assert api["TodoList"]["mean_pass_at_1"] == 1.0  # the numbers are still given
        assert {d["label"] for d in api.values()} == {None}
        assert not any(label in html for label in ("badge label-saturated", "badge label-never",
                                                   "badge label-discriminating"))
        assert 'title="fewer than 3 ranked systems">—</span>' in html
        assert "saturated" not in cell and "— (fewer than 3 ranked systems)" in cell
        assert f"spread 0.00 over {systems} ranked system" in cell

    finished_submission(split=demo_split, system_name="Third", scores=C)
    api = {t["name"]: t["health"]["difficulty"] for t in APIClient().get("/api/v1/tasks/").json()["tasks"]}
    assert api["TodoList"]["label"] == "saturated" and api["TodoList"]["systems"] == 3
    assert "saturated" in _difficulty_cell(client.get("/tasks/TodoList/").content.decode())


def test_matrix_api_orders_tasks_hardest_first_and_links_each_cell(seeded):
    data = APIClient().get("/api/v1/matrix/", {"language": "python"}).json()

    assert [s["system"] for s in data["systems"]] == ["Sys A", "Sys B"]
    means = [t["difficulty"]["mean_pass_at_1"] for t in data["tasks"]]
    assert means == sorted(means) and data["tasks"][-1]["task"] == "TodoList"
    names = [t["task"] for t in data["tasks"]]
    cell = data["cells"][1][names.index("Notes")]
    sub_b = data["systems"][1]["submission"]
    assert (cell["tests_passed"], cell["tests_total"], cell["outcome"]) == (5, 15, "tests_failed")
    assert cell["url"] == f"/submissions/{sub_b}/#task-Notes"
    by_name = APIClient().get("/api/v1/matrix/", {"order": "name"}).json()
    assert [t["task"] for t in by_name["tasks"]] == sorted(t.name for t in seeded.tasks.all())
    assert APIClient().get("/api/v1/matrix/", {"order": "random"}).status_code == 400


def test_matrix_page_draws_a_heat_map_and_a_table_of_links(client, seeded):
    response = client.get("/matrix/", {"language": "overall"})
    html = response.content.decode()
    figure = response.context["figure"]

    assert response.status_code == 200 and figure["data"][0]["type"] == "heatmap"
    assert figure["data"][0]["y"] == ["#1 Sys A", "#2 Sys B"]
    assert figure["data"][0]["customdata"][0][0].startswith("/submissions/")
    assert html.count('<td class="cell"') >= 2 * 6 and "#task-TodoList" in html
    assert client.get("/matrix/", {"language": "cobol"}).status_code == 404
