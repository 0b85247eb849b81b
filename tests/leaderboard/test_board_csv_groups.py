"""board.csv names a significance group by its rows, not by their ranks: with tied ranks `1;1` named no row
(docs/exports.md "board.csv", schema board-export/v2)."""
from __future__ import annotations

import csv
import io

from rest_framework.test import APIClient

from leaderboard.exports import BOARD_SCHEMA
from tests.factories import finished_submission

SAME = {"TodoList": (17, "passed", 1), "Notes": (15, "passed", 1)}


def test_a_group_of_tied_rows_names_each_row_by_its_submission(demo_split):
    first = finished_submission(split=demo_split, system_name="Twin One", scores=SAME)
    second = finished_submission(split=demo_split, system_name="Twin Two", scores=SAME)
    third = finished_submission(split=demo_split, system_name="Twin Three", scores=SAME)
    lines = list(csv.DictReader(io.StringIO(APIClient().get("/api/v1/export/board.csv").content.decode())))
    assert [line["overall_rank"] for line in lines] == ["1", "1", "1"]  # tied: the ranks cannot tell them apart
    by_submission = {line["submission"]: line for line in lines}
    expected = {str(s.pk) for s in (first, second, third)}
    for line in lines:
        members = line["overall_group"].split(";")
        assert set(members) == expected and len(members) == 3
        assert all(m in by_submission for m in members)  # each names one line of the file
        assert line["schema"] == BOARD_SCHEMA == "board-export/v2"
    board = APIClient().get("/api/v1/export/board.json").json()
    group = board["rows"][0]["views"]["overall"]["significance_group"]
    assert sorted(group["submissions"]) == sorted(s.pk for s in (first, second, third))
    assert group["ranks"] == [1, 1, 1]


def test_the_exports_doc_documents_the_group_and_the_schema():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "exports.md").read_text()
    assert f"`{BOARD_SCHEMA}`" in doc and "`submission` values of its rows" in doc
