"""Exports (docs/exports.md): the whole board as JSON and CSV, every per-task result as one CSV, with the benchmark
and evaluator versions, stable columns, and cells neutralised against formula injection (core.report.csv_safe)."""
from __future__ import annotations

import csv
import io

import pytest
from rest_framework.test import APIClient

from catalog.models import System, Team
from core.engine import EVALUATOR_VERSION
from core.report import csv_safe, report_csv
from leaderboard.exports import BOARD_CSV_FIELDS, RESULTS_CSV_FIELDS
from tests.factories import finished_submission

STRONG = {"TodoList": (17, "passed", 1), "InventoryService": (12, "tests_failed", 1), "Notes": (15, "passed", 1)}
WEAK = {"TodoList": (3, "tests_failed", 1), "Bookstore": (9, "tests_failed", 1)}


def _rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.mark.parametrize("value, safe", [
    ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"), ("+1", "'+1"), ("-2+3", "'-2+3"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\tx", "'\tx"), ("\rx", "'\rx"), ("plain", "plain"), ("a=b", "a=b"), (-0.5, -0.5), (3, 3), (None, None), ("", ""),
])
def test_csv_safe_prefixes_formula_triggers_and_leaves_numbers(value, safe):
    assert csv_safe(value) == safe


@pytest.fixture
def board(demo_split):
    finished_submission(split=demo_split, system_name="Strong", scores=STRONG)
    finished_submission(split=demo_split, system_name="Weak", scores=WEAK)
    team = Team.objects.create(name="platform")
    System.objects.create(team=team, name="Oracle", type=System.Type.REFERENCE)
    finished_submission(split=demo_split, system_name="Oracle", team=team,
                        scores={t.name: (t.tests_total, "passed", 1) for t in demo_split.tasks.all()})
    return demo_split


def test_board_json_has_every_row_with_its_intervals_per_view_and_the_versions(board):
    response = APIClient().get("/api/v1/export/board.json")
    data = response.json()

    assert response.status_code == 200 and data["schema"] == "board-export/v2"
    assert data["benchmark"]["name"] == "demo" and data["benchmark"]["version"] == board.benchmark.version
    assert data["benchmark"]["tasks"] == {"overall": 6, "python": 5, "java": 1}
    assert data["evaluator"] == {"current": EVALUATOR_VERSION, "versions": [EVALUATOR_VERSION]}
    assert [r["system"] for r in data["rows"]] == ["Strong", "Weak", "Oracle"]
    strong = data["rows"][0]
    assert strong["ranked"] is True and strong["views"]["overall"]["rank"] == 1
    assert strong["views"]["overall"]["pass_at_1"] == pytest.approx((1 + 12 / 15 + 1) / 6)
    assert len(strong["views"]["python"]["pass_at_1_ci"]) == 2 and strong["views"]["java"]["tasks"] == 1
    assert data["rows"][1]["views"]["overall"]["tied_with_leader"] in (True, False)
    assert data["rows"][2]["ranked"] is False and data["rows"][2]["views"]["overall"]["rank"] is None


def test_board_csv_is_the_same_rows_with_the_documented_columns(board):
    response = APIClient().get("/api/v1/export/board.csv")
    rows = _rows(response.content.decode())
    as_json = APIClient().get("/api/v1/export/board.json").json()

    assert response["Content-Type"].startswith("text/csv")
    assert f"demo-verified-{board.benchmark.version[:12]}-board.csv" in response["Content-Disposition"]
    assert tuple(rows[0].keys()) == BOARD_CSV_FIELDS
    assert [r["system"] for r in rows] == ["Strong", "Weak", "Oracle"]
    first, json_first = rows[0], as_json["rows"][0]["views"]
    assert first["benchmark_version"] == board.benchmark.version and first["evaluator_version"] == EVALUATOR_VERSION
    assert float(first["overall_pass_at_1"]) == pytest.approx(json_first["overall"]["pass_at_1"], abs=1e-6)
    assert float(first["python_pass_at_1_lo"]) == pytest.approx(json_first["python"]["pass_at_1_ci"][0], abs=1e-6)
    assert first["overall_rank"] == "1" and first["ranked"] == "1" and rows[2]["overall_rank"] == ""


def test_results_csv_has_one_line_per_system_and_task(board):
    rows = _rows(APIClient().get("/api/v1/export/results.csv").content.decode())

    assert tuple(rows[0].keys()) == RESULTS_CSV_FIELDS
    assert len(rows) == 3 * 6
    todo = next(r for r in rows if r["system"] == "Weak" and r["task"] == "TodoList")
    assert (todo["tests_passed"], todo["tests_total"], todo["outcome"], todo["pass_at_1"]) == (
        "3", "17", "tests_failed", f"{3 / 17:.6f}")
    assert todo["benchmark_version"] == board.benchmark.version and todo["evaluator_version"] == EVALUATOR_VERSION
    missing = next(r for r in rows if r["system"] == "Weak" and r["task"] == "Notes")
    assert missing["outcome"] == "missing" and missing["pass_at_1"] == "0.000000"
    assert {r["ranked"] for r in rows if r["system"] == "Oracle"} == {"0"}


def test_a_hostile_system_name_is_neutralised_in_every_csv(demo_split):
    team = Team.objects.create(name="-team")
    System.objects.create(team=team, name="=HYPERLINK(\"http://evil\",\"x\")", base_model="+model",
                          agent_framework="@frame")
    sub = finished_submission(split=demo_split, system_name="=HYPERLINK(\"http://evil\",\"x\")", scores=STRONG)

    board = _rows(APIClient().get("/api/v1/export/board.csv").content.decode())[0]
    result = _rows(APIClient().get("/api/v1/export/results.csv").content.decode())[0]
    report = _rows(APIClient().get(f"/api/v1/submissions/{sub.pk}/report.csv").content.decode())[0]

    assert board["system"].startswith("'=") and board["base_model"] == "'+model"
    assert board["agent_framework"] == "'@frame" and board["team"] == "'-team"
    assert result["system"].startswith("'=")
    assert report["system"].startswith("'=")


def test_report_csv_neutralises_through_the_one_function():
    report = {"submission": {"id": 1, "system": "+SUM(1)"}, "tasks": [{
        "task": "T", "language": "python", "framework": "", "domain": "", "outcome": "tests_failed", "dsr": 1,
        "ac": None, "ac_declared": 0, "ac_implemented": 0, "tests_passed": 1, "tests_total": 2, "pass_at_1": 0.5,
        "solved": 0, "durations": {}, "reference_status": "unchecked", "detail": "=cmd|' /C calc'!A0"}]}

    row = _rows(report_csv(report))[0]

    assert row["system"] == "'+SUM(1)" and row["detail"] == "'=cmd|' /C calc'!A0" and row["pass_at_1"] == "0.5000"


def test_the_data_page_links_every_download_and_an_unknown_split_is_404(client, board):
    html = client.get("/data/").content.decode()

    for name in ("board.csv", "board.json", "results.csv"):
        assert f"/api/v1/export/{name}?benchmark=demo&amp;split=verified" in html
    assert APIClient().get("/api/v1/export/board.csv", {"split": "nope"}).status_code == 404
    assert APIClient().get("/api/v1/export/board.json", {"benchmark": "nope"}).status_code == 404


def test_the_documented_columns_are_the_exported_ones():
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "exports.md").read_text()
    results = re.search(r"## results\.csv\n.*?\n\n`([^`]+)`", doc, re.S).group(1)
    assert tuple(c.strip() for c in results.replace("\n", " ").split(",")) == RESULTS_CSV_FIELDS
    board = re.search(r"## board\.csv\n.*?\n\n`([^`]+)`", doc, re.S).group(1)
    assert tuple(c.strip() for c in board.replace("\n", " ").split(",")) == BOARD_CSV_FIELDS[:18]
    views = [c.split("_rank")[0] for c in BOARD_CSV_FIELDS if c.endswith("_rank")]
    assert "for each view " + ", ".join(f"`{v}`" for v in views) + " in that order" in doc.replace("\n", " ")
