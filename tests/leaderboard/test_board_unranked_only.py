"""The home page says "No finished evaluation" only when it shows nothing at all: not above the oracle's row or the
authors' published rows, which are then the board's only rows and are shown open, not collapsed."""
from __future__ import annotations

import re

import pytest

from catalog.models import System, Team
from tests.factories import finished_submission
from tests.leaderboard.test_reported import TWO_ROWS, import_reported, write_source

NOTHING = "No finished evaluation on Python tasks yet."


def _panel(client, key: str = "python") -> str:
    page = client.get("/").content.decode()
    return page.split(f'id="panel-{key}"', 1)[1].split("</section>", 1)[0]


def _reported_details(panel: str) -> str:
    return re.search(r"<details class=\"reported\"[^>]*>", panel).group(0)


@pytest.fixture
def oracle(demo_split):
    System.objects.create(team=Team.objects.create(name="platform"), name="Reference solutions",
                          type=System.Type.REFERENCE)
    return finished_submission(split=demo_split, system_name="Reference solutions",
                               scores={t.name: (t.tests_total, "passed", 1) for t in demo_split.tasks.all()})


def test_an_empty_board_says_so(client, demo_split):
    assert NOTHING in _panel(client)


def test_the_oracle_alone_is_shown_without_the_empty_message(client, oracle):
    panel = _panel(client)
    assert "Reference solutions — the oracle, not ranked" in panel and "Reference solutions</a>" in panel
    assert NOTHING not in panel
    assert "No system is ranked on Python tasks yet" in panel


def test_the_authors_rows_alone_are_shown_open(client, demo_split, tmp_path):
    import_reported(write_source(tmp_path, TWO_ROWS))
    panel = _panel(client)
    assert "Paper Bot" in panel and NOTHING not in panel
    assert " open" in _reported_details(panel)


def test_beside_ranked_rows_the_authors_rows_stay_collapsed(client, demo_split, tmp_path):
    import_reported(write_source(tmp_path, TWO_ROWS))
    finished_submission(split=demo_split, system_name="Ranked Agent", scores={"TodoList": (17, "passed", 1)})
    panel = _panel(client)
    assert "Ranked Agent</a>" in panel and " open" not in _reported_details(panel)
    assert "No system is ranked" not in panel
