"""Ranking per docs/scoring.md "Ranking": order, shared ranks, unfinished rows never ranked, per-language views."""
import pytest

from evaluation.models import EvaluationRun, RunStatus
from catalog.selectors import NotFound
from leaderboard.selectors import leaderboard_rows
from tests.factories import finished_submission

ALL_PASS = {"Bookstore": (18, "passed", 1), "InventoryService": (15, "passed", 1), "Notes": (15, "passed", 1),
            "Tic-Tac-Toe": (20, "passed", 1), "TodoList": (17, "passed", 1), "UserManagement_2": (20, "passed", 1)}


def test_rows_are_ordered_by_pass_at_1_and_equal_rows_share_a_rank(demo_split):
    finished_submission(split=demo_split, system_name="Best", scores=ALL_PASS)
    finished_submission(split=demo_split, system_name="HalfA", scores={"TodoList": (17, "passed", 1)})
    finished_submission(split=demo_split, system_name="HalfB", scores={"TodoList": (17, "passed", 1)})
    finished_submission(split=demo_split, system_name="Zero", scores={})
    rows = leaderboard_rows(split=demo_split, language="overall")
    assert [(r.rank, r.system.name) for r in rows] == [(1, "Best"), (2, "HalfA"), (2, "HalfB"), (4, "Zero")]
    assert rows[1].metrics["pass_at_1"] == pytest.approx(1 / 6)
    assert rows[0].metrics["pass_at_1_ci"] == [1.0, 1.0]


def test_language_views_use_only_that_languages_tasks(demo_split):
    finished_submission(split=demo_split, system_name="JavaOnly", scores={"InventoryService": (15, "passed", 1)})
    java = leaderboard_rows(split=demo_split, language="java")
    python = leaderboard_rows(split=demo_split, language="python")
    assert java[0].metrics["pass_at_1"] == 1.0 and java[0].metrics["tasks"] == 1
    assert python[0].metrics["pass_at_1"] == 0.0 and python[0].metrics["tasks"] == 5


def test_unfinished_runs_are_never_ranked(demo_split):
    sub = finished_submission(split=demo_split, system_name="Later", scores=ALL_PASS)
    EvaluationRun.objects.filter(submission=sub).update(status=RunStatus.RUNNING)
    assert leaderboard_rows(split=demo_split, language="overall") == []


def test_a_system_is_ranked_once_with_its_latest_finished_run(demo_split):
    finished_submission(split=demo_split, system_name="Twice", scores={})
    finished_submission(split=demo_split, system_name="Twice", scores=ALL_PASS)
    rows = leaderboard_rows(split=demo_split, language="overall")
    assert len(rows) == 1 and rows[0].metrics["pass_at_1"] == 1.0


def test_private_submissions_stay_off_the_leaderboard(demo_split):
    finished_submission(split=demo_split, system_name="Secret", scores=ALL_PASS, is_public=False)
    assert leaderboard_rows(split=demo_split, language="overall") == []


def test_close_rows_are_marked_tied_with_the_leader(demo_split):
    finished_submission(split=demo_split, system_name="Leader", scores=ALL_PASS)
    close = dict(ALL_PASS, TodoList=(16, "tests_failed", 1))
    finished_submission(split=demo_split, system_name="Close", scores=close)
    finished_submission(split=demo_split, system_name="Far", scores={})
    rows = {r.system.name: r for r in leaderboard_rows(split=demo_split, language="overall")}
    assert rows["Close"].tied_with_leader is True
    assert rows["Far"].tied_with_leader is False
    assert rows["Leader"].tied_with_leader is False


def test_unknown_language_view_is_an_error(demo_split):
    with pytest.raises(NotFound):
        leaderboard_rows(split=demo_split, language="rust")


def test_ac_is_a_mean_over_tasks_that_declare_endpoints_and_dsr_counts_missing_as_zero(demo_split):
    sub = finished_submission(split=demo_split, system_name="Half", scores={"TodoList": (10, "tests_failed", 1)})
    summary = sub.runs.get().summary["overall"]
    assert summary["dsr"] == pytest.approx(1 / 6)
    assert summary["ac"] == pytest.approx(1 / 6)
    assert summary["outcomes"]["missing"] == 5 and summary["outcomes"]["tests_failed"] == 1
