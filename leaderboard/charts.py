"""Plotly figures built server-side as plain dicts (docs/architecture.md "Conventions": pure functions; plotly.js
draws them)."""
from __future__ import annotations

import html
import json
from typing import Any, Iterable

import plotly.graph_objects as go

from core.grading.taxonomy import GROUP_LABELS, GROUPS, LABELS, SCORED, Group

GROUP_COLORS = {Group.PASSED: "#2e9e5b", Group.LOGIC: "#e0a030", Group.DEPLOYMENT: "#d9534f",
                Group.DEPENDENCY: "#8e44ad", Group.SUBMISSION: "#7f8c8d", Group.PLATFORM: "#34495e"}

AXES = (("pass_at_1", "Pass@1"), ("ac", "AC"), ("dsr", "DSR"), ("solved", "Solved"))
MAX_TRACES = 8


def _pct(value: float | None) -> float | None:
    """Percent with 2 decimals; None stays None (Plotly leaves a gap instead of drawing 0)."""
    return round(100 * value, 2) if value is not None else None


def _ci_text(metrics: dict, key: str) -> str:
    ci = metrics.get(f"{key}_ci")
    value = metrics.get(key)
    if value is None:
        return "n/a"
    published = (metrics.get("published") or {}).get(key)
    if published is not None:
        return f"{published}% as reported by the authors (no interval published)"
    return f"{_pct(value):.1f}% [{_pct(ci[0]):.1f}, {_pct(ci[1]):.1f}]" if ci else f"{_pct(value):.1f}%"


def _label(text: str) -> str:
    """A user-chosen name made safe for Plotly, which renders a subset of HTML (links, bold) in names and hover
    text: `<` and `&` become entities that Plotly shows as the characters themselves."""
    return html.escape(text, quote=False)


#: Longest name a chart shows in its labels and legend; the hover text keeps the full name.
LABEL_MAX = 40


def short_label(text: str, limit: int = LABEL_MAX) -> str:
    """`_label(text)` cut to `limit` characters, the last one an ellipsis "…", for an axis label or a legend entry
    (a 100-character name squeezed a heat map to a sliver and ran past its card); the hover text carries the full
    name."""
    return _label(text if len(text) <= limit else text[:limit - 1] + "…")


def radar_figure(*, rows: Iterable[tuple[str, dict]], title: str) -> dict[str, Any]:
    """A radar chart (Pass@1, AC, DSR, Solved in percent) with one trace per system, top 8 rows.

    `rows` is [(system name, metrics M of docs/scoring.md "Report schema")] in rank order. Returns the figure as a
    JSON-ready dict for Plotly.newPlot; hover text carries the 95% intervals.
    """
    fig = go.Figure()
    labels = [label for _, label in AXES]
    for raw_name, metrics in list(rows)[:MAX_TRACES]:
        name = _label(raw_name)
        values = [_pct(metrics.get(key)) for key, _ in AXES]
        hover = [f"{name}<br>{label}: {_ci_text(metrics, key)}" for key, label in AXES]
        fig.add_trace(go.Scatterpolar(r=values + values[:1], theta=labels + labels[:1], name=short_label(raw_name),
                                      fill="toself",
                                      opacity=0.55, text=hover + hover[:1], hoverinfo="text"))
    fig.update_layout(title={"text": title, "x": 0.5}, polar={"radialaxis": {"range": [0, 100], "ticksuffix": "%"}},
                      showlegend=True, margin={"l": 40, "r": 40, "t": 60, "b": 30}, height=420,
                      legend={"orientation": "h", "y": -0.1})
    return json.loads(fig.to_json())


def failure_breakdown_figure(*, rows: Iterable[tuple[str, dict[str, int]]], title: str) -> dict[str, Any]:
    """Stacked horizontal bars, one per row (a submission or system): task counts per outcome group of the
    failure taxonomy (dependency, deployment, logic, submission, passed), each segment split by outcome.

    `rows` is [(label, {outcome: count})]. Hover text names the outcome and its count.
    """
    rows = list(rows)
    fig = go.Figure()
    for outcome in SCORED:
        group = GROUP_LABELS[GROUPS[outcome]]
        counts = [outcomes.get(outcome.value, 0) for _, outcomes in rows]
        if not any(counts):
            continue
        fig.add_trace(go.Bar(y=[short_label(label) for label, _ in rows], x=counts, orientation="h", name=f"{group}: {outcome.value}",
                             customdata=[_label(label) for label, _ in rows],
                             marker={"color": GROUP_COLORS[GROUPS[outcome]]}, marker_line={"width": 1, "color": "#fff"},
                             hovertemplate=f"%{{customdata}}<br>{LABELS[outcome]} ({group})<br>%{{x}} tasks"
                                           "<extra></extra>"))
    fig.update_layout(title={"text": title, "x": 0.5}, barmode="stack",
                      margin={"l": 160, "r": 20, "t": 50, "b": 40}, xaxis={"title": "tasks", "dtick": 1},
                      legend={"orientation": "h", "y": -0.6}, height=200 + 40 * max(len(rows), 1))
    return json.loads(fig.to_json())


def shared_template(figures: Iterable[dict[str, Any]]) -> dict[str, Any] | None:
    """Take the layout template (plotly.py's default template, about 8 KB of JSON, the same in every figure) out of
    each of `figures`, in place, and return it once, so a page with several figures (the home page's tabs) ships it
    once; the page's script puts it back into each figure's layout before Plotly.newPlot (static/js/leaderboard.js).

    Returns None when no figure had a template."""
    template = None
    for figure in figures:
        found = figure.get("layout", {}).pop("template", None)
        template = template if found is None else found
    return template

