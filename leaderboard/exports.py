"""Downloads of a whole split (docs/exports.md): the board (every row, its intervals and per-language values) as
JSON and CSV, and every per-task result of the ranked runs as one CSV. Stable schemas, versioned by `SCHEMA`;
every CSV cell goes through core.report.csv_safe."""
from __future__ import annotations

import csv
import io
from typing import Any

from django.utils import timezone

from catalog.models import Split, System
from catalog.selectors import excluded_task_names, split_tasks
from core.engine import EVALUATOR_VERSION
from core.report import csv_safe_row
from leaderboard.badges import badge_keys, run_badges
from leaderboard.selectors import LANGUAGE_VIEWS, latest_runs, leaderboard_rows

#: v2: board.csv's `<view>_group` holds the submission ids of the group's rows (v1 held their ranks, which repeat
#: when rows tie: `1;1` named no row); board.json's groups gain "submissions" (docs/exports.md "Changes").
BOARD_SCHEMA = "board-export/v2"
RESULTS_SCHEMA = "results-export/v1"
METRICS = ("pass_at_1", "ac", "dsr", "solved")
#: Columns of board.csv, in order (docs/exports.md "board.csv").
BOARD_CSV_FIELDS = (
    "schema", "benchmark", "split", "benchmark_version", "scored_benchmark_version", "evaluator_version", "backend",
    "isolation", "outdated", "ranked", "system", "team", "type", "agent_framework", "base_model", "submission",
    "submitted_at", "evaluated_at",
    *(f"{view}_{col}" for view in LANGUAGE_VIEWS
      for col in ("rank", "tied_with_leader", "tasks",
                  *(f"{m}{suffix}" for m in METRICS for suffix in ("", "_lo", "_hi")))),
    # appended (docs/exports.md: new columns go at the end): significance groups and badges
    *(f"{view}_group" for view in LANGUAGE_VIEWS), "badges", "source_url")
#: Columns of results.csv, in order (docs/exports.md "results.csv").
RESULTS_CSV_FIELDS = (
    "schema", "benchmark", "split", "benchmark_version", "scored_benchmark_version", "evaluator_version", "ranked",
    "system", "type", "submission", "task", "language", "excluded", "outcome", "dsr", "ac", "ac_declared",
    "ac_implemented", "tests_passed", "tests_total", "pass_at_1", "solved")


def board_export(*, split: Split) -> dict[str, Any]:
    """The whole board of a split as one JSON-ready dict (schema `board-export/v2`, docs/exports.md):
    {"schema", "generated_at", "benchmark": {"name", "title", "version", "split", "tasks": {view: count},
    "excluded": {view: [names]}}, "evaluator": {"current": version, "versions": [versions the rows were scored
    by]}, "rows": [row]}. One row per system with a finished public run (evaluated by us; published rows are at
    /api/v1/reported/), ranked systems first in Overall rank order, then the reference solutions (`ranked`
    false): {"system", "team", "type", "agent_framework", "base_model", "submission", "submitted_at",
    "evaluated_at", "benchmark_version", "evaluator": {"version", "backend", "isolation"}, "outdated", "ranked",
    "badges": [keys of leaderboard.badges], "source_url", "views": {view: {"rank", "tied_with_leader",
    "significance_group": {"ranks", "systems", "submissions"} or null, **M} or null when the run has no task of the view}} (M: the
    metrics of docs/scoring.md "Report schema", fractions in [0, 1] with their 95% intervals; rank null for the
    reference solutions)."""
    ranks: dict[str, dict[int, Any]] = {}
    keys: dict[str, list[int | None]] = {}  # per view, the submission of each board position (None: a reported row)
    for view in LANGUAGE_VIEWS:
        board = leaderboard_rows(split=split, language=view)
        ranks[view] = {r.run.pk: r for r in board if r.run is not None}
        keys[view] = [r.run.submission_id if r.run is not None else None for r in board]
    overall_order = {pk: i for i, pk in enumerate(ranks["overall"])}
    runs = sorted(latest_runs(split=split, results=False), key=lambda run: (
        run.submission.system.type == System.Type.REFERENCE, overall_order.get(run.pk, len(overall_order)),
        run.submission.system.name.lower()))
    rows = []
    for run in runs:
        s = run.submission
        views = {}
        for view in LANGUAGE_VIEWS:
            metrics = run.scores.metrics(view) if run.scores else None
            ranked = ranks[view].get(run.pk)
            group = ranked.significance if ranked else None
            views[view] = None if metrics is None else {
                "rank": ranked.rank if ranked else None,
                "tied_with_leader": ranked.tied_with_leader if ranked else None,
                "significance_group": {"ranks": group["ranks"], "systems": group["systems"],
                                       "submissions": [keys[view][p - 1] for p in group["positions"]]}
                if group else None,
                **metrics}
        rows.append({"system": s.system.name, "team": s.system.team.name, "type": s.system.type,
                     "agent_framework": s.system.agent_framework, "base_model": s.system.base_model,
                     "submission": s.pk, "submitted_at": s.created_at.isoformat(),
                     "evaluated_at": run.finished_at.isoformat() if run.finished_at else None,
                     "benchmark_version": run.benchmark.version,
                     "evaluator": {"version": run.evaluator_version, "backend": run.backend,
                                   "isolation": run.isolation},
                     "outdated": run.is_outdated, "ranked": s.system.type != System.Type.REFERENCE,
                     "badges": badge_keys(run_badges(run)), "source_url": s.system.source_url,
                     "views": views})
    return {"schema": BOARD_SCHEMA, "generated_at": timezone.now().isoformat(),
            "benchmark": {"name": split.benchmark.name, "title": split.benchmark.title,
                          "version": split.benchmark.version, "split": split.name,
                          "tasks": {v: split_tasks(split=split, language=v).count() for v in LANGUAGE_VIEWS},
                          "excluded": {v: excluded_task_names(split=split, language=v) for v in LANGUAGE_VIEWS}},
            "evaluator": {"current": EVALUATOR_VERSION,
                          "versions": sorted({r["evaluator"]["version"] for r in rows if r["evaluator"]["version"]})},
            "rows": rows}


def _csv(fields: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow(csv_safe_row(row))
    return out.getvalue()


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:.6f}"


def _flag(value: bool | None) -> str:
    return "" if value is None else str(int(value))


def board_csv(export: dict[str, Any]) -> str:
    """`board_export`'s dict as CSV: a header of BOARD_CSV_FIELDS, one line per row. Fractions with 6 decimals,
    booleans 1/0, empty cells for null (no interval, no rank, a view the run has no task of)."""
    bench = export["benchmark"]
    lines = []
    for row in export["rows"]:
        line = {"schema": export["schema"], "benchmark": bench["name"], "split": bench["split"],
                "benchmark_version": bench["version"], "scored_benchmark_version": row["benchmark_version"],
                "evaluator_version": row["evaluator"]["version"], "backend": row["evaluator"]["backend"],
                "isolation": row["evaluator"]["isolation"], "outdated": _flag(row["outdated"]),
                "ranked": _flag(row["ranked"]),
                **{k: row[k] for k in ("system", "team", "type", "agent_framework", "base_model", "submission",
                                        "submitted_at", "evaluated_at")}}
        for view, m in row["views"].items():
            m = m or {}
            line[f"{view}_rank"] = m.get("rank") if m.get("rank") is not None else ""
            line[f"{view}_tied_with_leader"] = _flag(m.get("tied_with_leader"))
            line[f"{view}_tasks"] = m.get("tasks", "")
            for metric in METRICS:
                ci = m.get(f"{metric}_ci") or (None, None)
                line[f"{view}_{metric}"] = _number(m.get(metric))
                line[f"{view}_{metric}_lo"], line[f"{view}_{metric}_hi"] = _number(ci[0]), _number(ci[1])
            group = m.get("significance_group")
            line[f"{view}_group"] = ";".join(str(k) for k in group["submissions"]) if group else ""
        line["badges"], line["source_url"] = ";".join(row["badges"]), row["source_url"]
        lines.append(line)
    return _csv(BOARD_CSV_FIELDS, lines)


def results_csv(*, split: Split) -> str:
    """Every per-task result of the split's board as one CSV (schema `results-export/v1`, RESULTS_CSV_FIELDS):
    for each system's latest finished public run (the one ranked; the reference solutions too, `ranked` 0), one
    line per task of the split by name. A task the run has no result for is written with outcome `missing` and 0
    tests passed, as the board scores it; `ac` empty when the task declares no endpoint."""
    tasks = list(split_tasks(split=split))
    runs = sorted(latest_runs(split=split), key=lambda r: r.submission.system.name.lower())
    lines = []
    for run in runs:
        s = run.submission
        results = {r.task.name: r for r in run.results.all()}
        for task in tasks:
            r = results.get(task.name)
            lines.append({
                "schema": RESULTS_SCHEMA, "benchmark": split.benchmark.name, "split": split.name,
                "benchmark_version": split.benchmark.version, "scored_benchmark_version": run.benchmark.version,
                "evaluator_version": run.evaluator_version,
                "ranked": _flag(s.system.type != System.Type.REFERENCE), "system": s.system.name,
                "type": s.system.type, "submission": s.pk, "task": task.name, "language": task.language,
                "excluded": _flag(task.is_excluded), "outcome": r.outcome if r else "missing",
                "dsr": r.dsr if r else 0, "ac": _number(r.ac) if r else "",
                "ac_declared": r.ac_declared if r else len(task.declared_endpoints),
                "ac_implemented": r.ac_implemented if r else 0, "tests_passed": r.tests_passed if r else 0,
                "tests_total": r.tests_total if r else task.tests_total,
                "pass_at_1": _number(r.pass_at_1 if r else 0.0), "solved": r.solved if r else 0})
    return _csv(RESULTS_CSV_FIELDS, lines)
