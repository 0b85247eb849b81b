"""Plotly figures built server-side as plain dicts (DESIGN.md: pure functions; plotly.js draws them)."""
from __future__ import annotations

import json
from typing import Any, Iterable

import plotly.graph_objects as go

AXES = (("pass_at_1", "Pass@1"), ("ac", "AC"), ("dsr", "DSR"), ("solved", "Solved"))
MAX_TRACES = 8


def _pct(value: float | None) -> float:
    return round(100 * value, 2) if value is not None else 0.0


def _ci_text(metrics: dict, key: str) -> str:
    ci = metrics.get(f"{key}_ci")
    value = metrics.get(key)
    if value is None:
        return "n/a"
    return f"{_pct(value):.1f}% [{_pct(ci[0]):.1f}, {_pct(ci[1]):.1f}]" if ci else f"{_pct(value):.1f}%"


def radar_figure(*, rows: Iterable[tuple[str, dict]], title: str) -> dict[str, Any]:
    """A radar chart (Pass@1, AC, DSR, Solved in percent) with one trace per system, top 8 rows.

    `rows` is [(system name, metrics M of SCORING.md)] in rank order. Returns the figure as a
    JSON-ready dict for Plotly.newPlot; hover text carries the 95% intervals.
    """
    fig = go.Figure()
    labels = [label for _, label in AXES]
    for name, metrics in list(rows)[:MAX_TRACES]:
        values = [_pct(metrics.get(key)) for key, _ in AXES]
        hover = [f"{name}<br>{label}: {_ci_text(metrics, key)}" for key, label in AXES]
        fig.add_trace(go.Scatterpolar(r=values + values[:1], theta=labels + labels[:1], name=name, fill="toself",
                                      opacity=0.55, text=hover + hover[:1], hoverinfo="text"))
    fig.update_layout(title={"text": title, "x": 0.5}, polar={"radialaxis": {"range": [0, 100], "ticksuffix": "%"}},
                      showlegend=True, margin={"l": 40, "r": 40, "t": 60, "b": 30}, height=420,
                      legend={"orientation": "h", "y": -0.1})
    return json.loads(fig.to_json())


def outcome_bar_figure(*, outcomes: dict[str, int], title: str) -> dict[str, Any]:
    """A horizontal bar per outcome of the failure taxonomy (counts of tasks)."""
    items = [(k, v) for k, v in outcomes.items() if v]
    fig = go.Figure(go.Bar(x=[v for _, v in items], y=[k for k, _ in items], orientation="h"))
    fig.update_layout(title={"text": title, "x": 0.5}, height=80 + 30 * max(len(items), 1),
                      margin={"l": 120, "r": 20, "t": 40, "b": 30})
    return json.loads(fig.to_json())
