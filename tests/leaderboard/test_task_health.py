"""Task health (docs/scoring.md "Reference solutions and task health"): tasks with N = 0 left out of the means,
defect notes on pages, in the API and in reports, and the reference solutions shown as an oracle, never ranked."""
from __future__ import annotations

import csv
import io

import pytest
from rest_framework.test import APIClient

from core.report import summarize, task_entry
from catalog.models import System, Team
from leaderboard.selectors import leaderboard_rows, reference_rows, task_health
from tests.factories import finished_submission

SCORES = {"TodoList": (17, "passed", 1), "InventoryService": (12, "tests_failed", 1)}


def _entry(task: str, passed: int, total: int, *, excluded: bool = False) -> dict:
    return task_entry(task=task, language="python", framework="", domain="", outcome="tests_failed", dsr=1, ac=None,
                      endpoints=[], tests_passed=passed, tests_total=total, durations={}, excluded=excluded)


def test_a_task_with_no_test_is_left_out_of_every_mean_and_listed():
    summary = summarize([_entry("A", 1, 2), _entry("B", 2, 2), _entry("NoTests", 0, 0, excluded=True)])

    assert summary["overall"]["tasks"] == 2
    assert summary["overall"]["pass_at_1"] == pytest.approx(0.75)
    assert summary["by_language"]["python"]["tasks"] == 2
    assert summary["excluded"] == ["NoTests"]


@pytest.fixture
def flawed_split(demo_split):
    """The demo split with Notes made an N = 0 task and a defect note on TodoList (restored by the db rollback)."""
    demo_split.tasks.filter(name="Notes").update(tests_total=0)
    demo_split.tasks.filter(name="TodoList").update(
        defects=[{"kind": "order-dependent", "source": "manifest", "text": "test_list_empty runs after creates"}],
        port_source="README.md line 9 (a 'Port:' line): - Port: 8080", suite_kind="black-box HTTP",
        reference_runs=[{"outcome": "passed", "passed": 17, "total": 17, "seconds": 2.0},
                        {"outcome": "tests_failed", "passed": 16, "total": 17, "seconds": 2.1}])
    return demo_split


def test_health_counts_systems_solving_each_task_and_the_reference_flake_rate(flawed_split):
    finished_submission(split=flawed_split, system_name="Solver", scores=SCORES)
    finished_submission(split=flawed_split, system_name="Weak", scores={"TodoList": (3, "tests_failed", 1)})

    health = {h["name"]: h for h in task_health(split=flawed_split)}

    assert health["TodoList"]["systems"] == 2 and health["TodoList"]["solved_share"] == 0.5
    assert health["TodoList"]["reference"]["flake_rate"] == 0.5
    assert health["Notes"]["excluded"] is True
    assert health["Bookstore"]["solved_share"] == 0.0


def test_tasks_page_and_api_show_defects_port_source_and_exclusion(client, flawed_split):
    html = client.get("/tasks/").content.decode()
    page = client.get("/tasks/TodoList/").content.decode()
    api = {t["name"]: t for t in APIClient().get("/api/v1/tasks/").json()["tasks"]}

    assert "excluded" in html and "black-box HTTP" in html
    assert "test_list_empty runs after creates" in page and "README.md line 9" in page
    assert "1 of 2 check runs passed" in page
    assert api["TodoList"]["health"]["defects"][0]["kind"] == "order-dependent"
    assert api["Notes"]["health"]["excluded"] is True and api["Notes"]["tests_total"] == 0


def test_an_excluded_task_is_stated_in_the_report_and_left_out_of_the_summary(flawed_split):
    sub = finished_submission(split=flawed_split, system_name="ReportBot", scores=SCORES)

    report = APIClient().get(f"/api/v1/submissions/{sub.pk}/report.json").json()

    assert report["summary"]["excluded"] == ["Notes"]
    assert report["summary"]["overall"]["tasks"] == flawed_split.tasks.count() - 1
    todo = next(t for t in report["tasks"] if t["task"] == "TodoList")
    assert todo["defects"] == ["test_list_empty runs after creates"] and todo["excluded"] is False


def test_the_report_csv_marks_the_excluded_task_so_its_mean_is_the_pages(client, flawed_split):
    # Without the column the N = 0 task read as tests_failed, Pass@1 0.0000, and the CSV's mean was below the page's.
    sub = finished_submission(split=flawed_split, system_name="CsvBot", scores=SCORES)
    summary = APIClient().get(f"/api/v1/submissions/{sub.pk}/report.json").json()["summary"]

    for url in (f"/api/v1/submissions/{sub.pk}/report.csv", f"/submissions/{sub.pk}/report.csv"):
        rows = list(csv.DictReader(io.StringIO(client.get(url).content.decode())))
        assert {r["task"]: r["excluded"] for r in rows if r["excluded"] == "1"} == {"Notes": "1"}
        assert {r["excluded"] for r in rows if r["task"] != "Notes"} == {"0"}
        scored = [float(r["pass_at_1"]) for r in rows if r["excluded"] == "0"]
        assert sum(scored) / len(scored) == pytest.approx(summary["overall"]["pass_at_1"], abs=1e-4)


def test_reference_solutions_are_an_oracle_shown_apart_and_never_ranked(client, demo_split):
    team = Team.objects.create(name="platform")
    System.objects.create(team=team, name="Oracle", type=System.Type.REFERENCE)
    finished_submission(split=demo_split, system_name="Oracle", team=team,
                        scores={t.name: (t.tests_total, "passed", 1) for t in demo_split.tasks.all()})
    finished_submission(split=demo_split, system_name="RealBot", scores=SCORES)

    ranked = [r.label for r in leaderboard_rows(split=demo_split, language="overall")]
    oracle = reference_rows(split=demo_split, language="overall")
    html = client.get("/").content.decode()

    assert ranked == ["RealBot"]
    assert [o["system"].name for o in oracle] == ["Oracle"] and oracle[0]["metrics"]["pass_at_1"] == 1.0
    assert "Reference solutions — the oracle, not ranked" in html
    assert html.index("RealBot") < html.index("Reference solutions — the oracle")
    api = APIClient().get("/api/v1/leaderboard/?language=overall").json()
    assert [r["system"] for r in api["rows"]] == ["RealBot"]
    assert [o["system"] for o in api["oracle"]] == ["Oracle"] and api["oracle"][0]["pass_at_1"] == 1.0


def test_the_board_says_which_tasks_its_means_leave_out(client, flawed_split):
    finished_submission(split=flawed_split, system_name="Solver", scores=SCORES)

    html = client.get("/").content.decode()
    api = APIClient().get("/api/v1/leaderboard/?language=python").json()

    assert "1 excluded)" in html and "Every mean leaves out 1 task with no hidden test" in html
    assert api["excluded_tasks"] == ["Notes"]
