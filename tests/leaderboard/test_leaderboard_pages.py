"""Pages and read APIs a visitor uses: leaderboard tabs, task catalog, reports as JSON and CSV."""
import csv
import io

from rest_framework.test import APIClient

from tests.factories import finished_submission

SCORES = {"TodoList": (17, "passed", 1), "InventoryService": (12, "tests_failed", 1), "Notes": (0, "start_crashed", 0)}


def test_home_shows_three_language_tabs_with_ranked_rows_and_radar_figures(client, demo_split):
    finished_submission(split=demo_split, system_name="ShownBot", scores=SCORES)
    html = client.get("/").content.decode()
    for tab in ("Python", "Java", "Overall"):
        assert f">{tab} <small>" in html
    assert "ShownBot" in html
    assert 'id="fig-python"' in html and 'id="fig-java"' in html
    assert '<script src="/static/vendor/plotly-partial.min.js" id="plotly-js" async>' in html


def test_the_home_page_ships_the_plotly_template_once_not_once_per_tab(client, demo_split):
    finished_submission(split=demo_split, system_name="TemplateBot", scores=SCORES)
    html = client.get("/").content.decode()
    assert html.count('"template"') == 0  # no tab's figure carries it
    assert html.count('id="plotly-template"') == 1
    assert html.count('"colorway"') == 1  # a key of plotly's default template, present once


def test_plotly_is_our_partial_bundle_served_from_our_static_files(client, demo_split):
    resp = client.get("/static/vendor/plotly-partial.min.js")
    assert resp.status_code == 200
    body = b"".join(resp.streaming_content) if resp.streaming else resp.content
    assert b"partial bundle: scatter, bar heatmap scatterpolar" in body[:400]
    assert len(body) < 1_500_000  # the full plotly.js dist is 4.8 MB


def test_leaderboard_api_returns_ranked_rows_with_intervals(demo_split):
    finished_submission(split=demo_split, system_name="ApiBot", scores=SCORES)
    data = APIClient().get("/api/v1/leaderboard/?split=verified&language=java").json()
    assert data["language"] == "java"
    row = data["rows"][0]
    assert row["system"] == "ApiBot" and row["rank"] == 1
    assert row["pass_at_1"] == 12 / 15
    assert row["pass_at_1_ci"] == [12 / 15, 12 / 15]
    assert APIClient().get("/api/v1/leaderboard/?language=cobol").status_code == 400
    assert APIClient().get("/api/v1/leaderboard/?split=nope").status_code == 404


def test_report_json_follows_the_scoring_schema(demo_split):
    sub = finished_submission(split=demo_split, system_name="ReportBot", scores=SCORES)
    report = APIClient().get(f"/api/v1/submissions/{sub.pk}/report.json").json()
    assert report["schema"] == "scoring/v1"
    assert report["benchmark"]["name"] == "demo" and len(report["benchmark"]["version"]) == 64
    assert set(report["summary"]) == {"overall", "by_language", "excluded"}
    assert report["summary"]["excluded"] == []  # no demo task has N = 0
    todo = next(t for t in report["tasks"] if t["task"] == "TodoList")
    assert todo["pass_at_1"] == 1.0 and todo["solved"] == 1 and todo["ac"] == 1.0
    assert {"method", "path", "evidence"} <= set(todo["endpoints"][0])
    notes = next(t for t in report["tasks"] if t["task"] == "Notes")
    assert notes["outcome"] == "start_crashed" and notes["tests_total"] == 15


def test_report_csv_has_one_row_per_task(client, demo_split):
    sub = finished_submission(split=demo_split, system_name="CsvBot", scores=SCORES)
    resp = client.get(f"/submissions/{sub.pk}/report.csv")
    rows = list(csv.DictReader(io.StringIO(resp.content.decode())))
    assert len(rows) == 6
    assert {r["task"] for r in rows} == set(demo_split.tasks.values_list("name", flat=True))


def test_report_of_an_unfinished_submission_is_not_found(demo_split, make_user, demo_zip):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from catalog.models import System
    from evaluation.services import submission_create

    user, _ = make_user("dave")
    system = System.objects.create(team=user.teams.get(), name="DaveBot")
    sub = submission_create(system=system, split=demo_split, user=user, enqueue=False,
                            upload=SimpleUploadedFile("a.zip", demo_zip("agent-alpha")))
    assert APIClient().get(f"/api/v1/submissions/{sub.pk}/report.json").status_code == 404


def test_task_catalog_lists_tasks_and_renders_the_readme(client, demo_split):
    html = client.get("/tasks/").content.decode()
    assert "UserManagement_2" in html and "Tic-Tac-Toe" in html
    detail = client.get("/tasks/TodoList/").content.decode()
    assert "<h1" in detail and "GET" in detail and "/api/todos/{param}" in detail


def test_hidden_test_files_are_not_served_by_any_url(client, demo_split):
    from pathlib import Path

    from django.conf import settings

    assert not Path(settings.BENCHMARK_ROOT).resolve().is_relative_to(Path(settings.STATIC_ROOT).resolve())
    assert not Path(settings.BENCHMARK_ROOT).resolve().is_relative_to(Path(settings.MEDIA_ROOT).resolve())
    for url in ("/static/../benchmarks/", "/media-not-served/submissions/", "/tasks/TodoList/tests/"):
        assert client.get(url).status_code == 404
