"""A system's history chart reads well with one point or an all-zero series (a single point showed ticks
"07:42:20.957 … 07:42:20.9585"; a 0% series sat clipped on the bottom edge)."""
from __future__ import annotations

import datetime as dt

from leaderboard.history import history_figure

WHEN = dt.datetime(2026, 12, 3, 7, 42, 20, 957000, tzinfo=dt.timezone.utc)


def _point(finished_at: dt.datetime, pass_at_1: float, *, ranked: bool = False, submission: int = 1) -> dict:
    return {"submission": submission, "run": submission, "finished_at": finished_at, "benchmark_version": "v",
            "pass_at_1": pass_at_1, "pass_at_1_ci": (pass_at_1, pass_at_1), "ac": None, "dsr": None, "note": "",
            "ranked": ranked, "why": "ranked"}


def _days(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text)


def test_one_point_gets_a_day_either_side_and_date_ticks():
    layout = history_figure(points=[_point(WHEN, 0.761, ranked=True)], title="demo / verified")["layout"]
    xaxis = layout["xaxis"]
    assert xaxis["type"] == "date" and "%L" not in xaxis["tickformat"] and "%S" not in xaxis["tickformat"]
    low, high = (_days(v) for v in xaxis["range"])
    naive = WHEN.replace(tzinfo=None)
    assert low <= naive - dt.timedelta(hours=23) and high >= naive + dt.timedelta(hours=23)
    assert xaxis["dtick"] == 86_400_000


def test_points_months_apart_keep_their_span_with_a_margin():
    later = WHEN + dt.timedelta(days=60)
    xaxis = history_figure(points=[_point(WHEN, 0.2), _point(later, 0.5, ranked=True, submission=2)],
                           title="t")["layout"]["xaxis"]
    low, high = (_days(v) for v in xaxis["range"])
    assert low < WHEN.replace(tzinfo=None) and high > later.replace(tzinfo=None)
    assert high - low < dt.timedelta(days=70) and "dtick" not in xaxis


def test_an_all_zero_series_is_not_clipped_on_the_bottom_edge():
    yaxis = history_figure(points=[_point(WHEN, 0.0, ranked=True)], title="t")["layout"]["yaxis"]
    low, high = yaxis["range"]
    assert low <= -5 and high >= 105  # 0% and 100% sit inside the plot, a marker's width from its edges
