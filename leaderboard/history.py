"""A system's history (issue 12, feature 9): every finished public run of its submissions over time, per split,
which one the board ranks and why (docs/scoring.md "Ranking": each system is ranked by its latest finished public
submission, preferring the current benchmark version), with a small plotly line chart of Pass@1."""
from __future__ import annotations

import datetime as dt
import json
from typing import Any

import plotly.graph_objects as go

from catalog.models import Split, System
from evaluation.models import EvaluationRun, RunStatus
from leaderboard.charts import _label
from leaderboard.selectors import leaderboard_rows


def _current_split(benchmark: str, name: str) -> Split | None:
    return (Split.objects.filter(benchmark__name=benchmark, benchmark__is_current=True, name=name)
            .select_related("benchmark").first())


def system_history(*, system: System) -> list[dict[str, Any]]:
    """Per split the system has finished public runs on (by benchmark and split name, any benchmark version):
    {"benchmark", "split", "points": [point], "ranked": the point the board ranks, "rank": its Overall rank or
    None (the oracle is never ranked), "figure": a plotly figure dict, "figure_id": its element id on the page},
    splits by name.

    point = {"submission", "run", "finished_at", "benchmark_version", "pass_at_1", "pass_at_1_ci", "ac", "dsr"
    (Overall fractions; None without scores), "note", "ranked": bool, "why": one sentence}, oldest first.
    The ranked point is the one the board reads (leaderboard.selectors.latest_runs): the latest finished public run,
    a run on the split's current benchmark version before any on an older one."""
    runs = (EvaluationRun.objects.filter(status=RunStatus.FINISHED, submission__system=system,
                                         submission__is_public=True, split__isnull=False)
            .select_related("submission", "benchmark", "split__benchmark").order_by("finished_at", "pk"))
    by_split: dict[tuple[str, str], list[EvaluationRun]] = {}
    for run in runs:
        by_split.setdefault((run.split.benchmark.name, run.split.name), []).append(run)
    histories = []
    for index, ((benchmark, name), found) in enumerate(sorted(by_split.items()), start=1):
        current = _current_split(benchmark, name)
        current_id = current.benchmark_id if current else None
        ranked = max(found, key=lambda r: (r.benchmark_id == current_id, r.finished_at, r.pk))
        rank = None
        if current and system.type != System.Type.REFERENCE:
            rank = next((row.rank for row in leaderboard_rows(split=current, language="overall")
                         if row.run is not None and row.run.pk == ranked.pk), None)
        points = [_point(run, ranked=ranked, system=system, rank=rank, current_id=current_id) for run in found]
        histories.append({"benchmark": benchmark, "split": name, "points": points, "rank": rank,
                          "figure_id": f"fig-history-{index}",
                          "ranked": next(p for p in points if p["ranked"]),
                          "figure": history_figure(points=points, title=f"{benchmark} / {name}: Pass@1 over time")})
    return histories


def _point(run: EvaluationRun, *, ranked: EvaluationRun, system: System, rank: int | None,
           current_id: int | None) -> dict[str, Any]:
    overall = run.scores.metrics("overall") if run.scores else None
    is_ranked = run.pk == ranked.pk
    if is_ranked and system.type == System.Type.REFERENCE:
        why = "shown apart as the oracle (reference solutions are never ranked): its latest finished public run"
    elif is_ranked:
        why = (f"ranked{f' #{rank} in Overall' if rank else ''}: the system's latest finished public submission"
               + ("" if run.benchmark_id == current_id else ", scored on an older benchmark version"))
    elif current_id is not None and run.benchmark_id != current_id and ranked.benchmark_id == current_id:
        why = f"not ranked: scored on an older benchmark version; #{ranked.submission_id} is on the current one"
    elif ranked.submission_id == run.submission_id:
        why = "not ranked: an earlier run of the same submission, re-scored later"
    else:
        why = f"not ranked: superseded by the later submission #{ranked.submission_id}"
    return {"submission": run.submission_id, "run": run.pk, "finished_at": run.finished_at,
            "benchmark_version": run.benchmark.version, "pass_at_1": overall["pass_at_1"] if overall else None,
            "pass_at_1_ci": overall.get("pass_at_1_ci") if overall else None,
            "ac": overall.get("ac") if overall else None, "dsr": overall.get("dsr") if overall else None,
            "note": run.submission.note, "ranked": is_ranked, "why": why}


def history_figure(*, points: list[dict[str, Any]], title: str) -> dict[str, Any]:
    """A small line chart of Overall Pass@1 (percent, with its 95% interval as error bars) per finished run, oldest
    first, the ranked run drawn as a star, on a date axis (`history_xaxis`) and a fixed 0-100% scale with a margin.
    `points` as `system_history` gives them. Returns a JSON-ready dict for Plotly.newPlot."""
    scored = [p for p in points if p["pass_at_1"] is not None]
    x = [_plotly_time(p["finished_at"]) for p in scored]
    y = [round(100 * p["pass_at_1"], 2) for p in scored]
    ci = [p["pass_at_1_ci"] or (p["pass_at_1"], p["pass_at_1"]) for p in scored]
    text = [f"#{p['submission']} · Pass@1 {100 * p['pass_at_1']:.1f}% [{100 * c[0]:.1f}, {100 * c[1]:.1f}]<br>"
            f"{_label(p['why'])}" + (f"<br>note: {_label(p['note'])}" if p["note"] else "")
            for p, c in zip(scored, ci)]
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=x, y=y, mode="lines+markers", name="finished public submissions", text=text,
                             hoverinfo="text", line={"color": "#9db4e8"}, marker={"color": "#23408e", "size": 7},
                             error_y={"type": "data", "symmetric": False,
                                      "array": [round(100 * c[1], 2) - v for c, v in zip(ci, y)],
                                      "arrayminus": [v - round(100 * c[0], 2) for c, v in zip(ci, y)],
                                      "color": "#9db4e8", "thickness": 1}))
    star = [i for i, p in enumerate(scored) if p["ranked"]]
    if star:
        fig.add_trace(go.Scatter(x=[x[i] for i in star], y=[y[i] for i in star], mode="markers", name="ranked",
                                 text=[text[i] for i in star], hoverinfo="text",
                                 marker={"symbol": "star", "size": 15, "color": "#e0a030",
                                         "line": {"color": "#7a4b00", "width": 1}}))
    fig.update_layout(title={"text": _label(title), "x": 0.5}, height=280, margin={"l": 50, "r": 20, "t": 45, "b": 40},
                      xaxis=history_xaxis([p["finished_at"] for p in scored]),
                      # 0% to 100% with room either side: a 0% or 100% point is never cut by the plot's edge
                      yaxis={"title": "Pass@1", "ticksuffix": "%", "range": [-10, 110], "tick0": 0, "dtick": 25},
                      legend={"orientation": "h", "y": -0.25}, showlegend=True)
    return json.loads(fig.to_json())


def history_xaxis(times: list[dt.datetime]) -> dict[str, Any]:
    """The time axis of a history chart: dates as `Dec 3, 2026` (never the sub-millisecond ticks Plotly picks for
    points close together), over at least a day either side of the points, so one point or points finished within
    minutes of each other sit in the middle of a readable day scale."""
    axis: dict[str, Any] = {"type": "date", "tickformat": "%b %-d, %Y", "hoverformat": "%Y-%m-%d %H:%M"}
    if times:
        first, last = min(times), max(times)
        if last - first < dt.timedelta(days=2):
            middle = first + (last - first) / 2
            first, last = middle - dt.timedelta(days=1), middle + dt.timedelta(days=1)
            axis["dtick"] = 86_400_000  # one tick a day
        else:
            pad = (last - first) / 20
            first, last = first - pad, last + pad
        axis["range"] = [_plotly_time(first), _plotly_time(last)]
    return axis


def _plotly_time(moment: dt.datetime) -> str:
    """`moment` in UTC as Plotly reads a date (it has no time zones): `2026-12-03 07:42:20.957`."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return moment.isoformat(sep=" ", timespec="milliseconds")
