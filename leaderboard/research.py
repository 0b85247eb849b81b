"""Reads researchers ask of a split beyond the ranking: the task x system matrix, the board's sort and filter, how to
cite the benchmark and the leaderboard, and the command that re-scores a submission offline.

The matrix figure is built here as a plain dict like leaderboard.charts (docs/architecture.md "Conventions")."""
from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
from django.conf import settings
from django.db.models import Prefetch, prefetch_related_objects
from django.urls import reverse

from catalog.models import Benchmark, Split, System
from catalog.selectors import NotFound, split_tasks
from core.engine import EVALUATOR_VERSION
from core.grading.metrics import task_difficulty
from leaderboard.charts import _label, short_label
from evaluation.models import TaskResult
from leaderboard.selectors import HEAVY_RESULT_FIELDS, LANGUAGE_VIEWS, LeaderboardRow, leaderboard_rows

MATRIX_ORDERS = ("difficulty", "name")
#: A red-to-green scale for Pass@1 in percent (0 = red, 100 = green).
PASS_COLORSCALE = [[0.0, "#c0392b"], [0.5, "#f1c40f"], [1.0, "#27ae60"]]


def result_url(*, submission_id: int, task: str) -> str:
    """The page of one task's result: the submission's report, at that task's card."""
    return f"{reverse('submissions:detail', args=[submission_id])}#task-{task}"


# --- the task x system matrix ---------------------------------------------------------------------------------
def task_matrix(*, split: Split, language: str = "overall", order: str = "difficulty") -> dict[str, Any]:
    """Per-task Pass@1 of every ranked system (evaluated rows of `leaderboard_rows`, in rank order) on the tasks of
    one language view (tasks with N = 0 left out and listed under `excluded`).

    `order`: `difficulty` (hardest first: lowest mean Pass@1 over the systems, then fewest solving, then name) or
    `name`. Returns {"benchmark", "version", "split", "language", "order", "excluded": [names],
    "systems": [{"system", "system_id", "rank", "submission"}],
    "tasks": [{"task", "language", "difficulty": TaskDifficulty.as_dict()}],
    "cells": [[{"pass_at_1" (fraction, None: no result), "tests_passed", "tests_total", "outcome", "url"}] per
    system, one per task in `tasks` order]}. Raises NotFound for an unknown view or order."""
    if language not in LANGUAGE_VIEWS:
        raise NotFound(f"unknown language {language!r}: use one of {', '.join(LANGUAGE_VIEWS)}")
    if order not in MATRIX_ORDERS:
        raise NotFound(f"unknown order {order!r}: use one of {', '.join(MATRIX_ORDERS)}")
    rows = [r for r in leaderboard_rows(split=split, language=language) if r.run is not None]
    tasks = [t for t in split_tasks(split=split, language=language)]
    excluded = [t.name for t in tasks if t.is_excluded]
    tasks = [t for t in tasks if not t.is_excluded]
    prefetch_related_objects([row.run for row in rows], Prefetch(  # one query, not one per system
        "results", queryset=TaskResult.objects.select_related("task").defer(*HEAVY_RESULT_FIELDS)))
    by_run = [{r.task.name: r for r in row.run.results.all()} for row in rows]
    columns = []
    for task in tasks:
        found = [results[task.name] for results in by_run if task.name in results]
        columns.append({"task": task.name, "language": task.language, "difficulty": task_difficulty(
            pass_values=[r.pass_at_1 for r in found], solved_values=[r.solved for r in found]).as_dict()})
    if order == "difficulty":
        columns.sort(key=lambda c: (c["difficulty"]["mean_pass_at_1"] if c["difficulty"]["systems"] else 2.0,
                                    c["difficulty"]["solved_share"] or 0.0, c["task"]))
    cells = []
    for row, results in zip(rows, by_run):
        line = []
        for column in columns:
            r = results.get(column["task"])
            line.append({"pass_at_1": r.pass_at_1 if r else None, "tests_passed": r.tests_passed if r else None,
                         "tests_total": r.tests_total if r else None, "outcome": r.outcome if r else None,
                         "url": result_url(submission_id=row.run.submission_id, task=column["task"])})
        cells.append(line)
    return {"benchmark": split.benchmark.name, "version": split.benchmark.version, "split": split.name,
            "language": language, "order": order, "excluded": excluded,
            "systems": [{"system": row.system.name, "system_id": row.system.pk, "rank": row.rank,
                         "submission": row.run.submission_id} for row in rows],
            "tasks": columns, "cells": cells}


def matrix_figure(matrix: dict[str, Any], *, title: str) -> dict[str, Any]:
    """A plotly heat map of `task_matrix`'s cells: one row per system (rank 1 on top), one column per task in the
    matrix's order, colour = Pass@1 in percent (0 red, 100 green; a gap where a system has no result). Each
    point's `customdata` is the URL of that task's result (the page opens it on click). Returns a JSON-ready dict
    for Plotly.newPlot."""
    systems = [f"#{s['rank']} {short_label(s['system'])}" for s in matrix["systems"]]
    tasks = [short_label(t["task"]) for t in matrix["tasks"]]
    z, text, links = [], [], []
    for system, line in zip(matrix["systems"], matrix["cells"]):
        z.append([None if c["pass_at_1"] is None else round(100 * c["pass_at_1"], 2) for c in line])
        text.append([f"{_label(system['system'])} · {_label(t['task'])}<br>" +
                     ("no result" if c["pass_at_1"] is None else
                      f"Pass@1 {100 * c['pass_at_1']:.1f}% ({c['tests_passed']}/{c['tests_total']}), "
                      f"{c['outcome']}") for t, c in zip(matrix["tasks"], line)])
        links.append([c["url"] for c in line])
    fig = go.Figure(go.Heatmap(z=z, x=tasks, y=systems, text=text, customdata=links, hoverinfo="text",
                               zmin=0, zmax=100, colorscale=PASS_COLORSCALE, xgap=1, ygap=1,
                               colorbar={"title": {"text": "Pass@1"}, "ticksuffix": "%"}))
    fig.update_layout(title={"text": title, "x": 0.5}, margin={"l": 200, "r": 30, "t": 60, "b": 160},
                      height=260 + 32 * max(len(systems), 1), yaxis={"autorange": "reversed", "automargin": True},
                      xaxis={"tickangle": -45, "automargin": True})
    return json.loads(fig.to_json())


# --- sort and filter the board ---------------------------------------------------------------------------------
SORT_KEYS = ("rank", "pass_at_1", "ac", "dsr", "solved", "date", "system")


@dataclass(frozen=True)
class BoardQuery:
    """The board's sort and filter, as read from the URL query string (`board_query`): `sort` one of SORT_KEYS,
    `descending`; filters (empty: any) on system `type` (agent, ide, other, ...), `framework`, `base_model`
    (exact, case-insensitive), `search` (part of the system's name), `open_source` ("yes": systems whose team
    gave a public source URL; "no": the others; published rows count as not open source), and the submission date
    range `since` / `until` (inclusive dates)."""

    sort: str = "rank"
    descending: bool = False
    type: str = ""
    framework: str = ""
    base_model: str = ""
    search: str = ""
    open_source: str = ""
    since: dt.date | None = None
    until: dt.date | None = None

    @property
    def is_default(self) -> bool:
        """True when nothing is sorted or filtered (the board as ranked)."""
        return self == BoardQuery()

    def as_params(self) -> dict[str, str]:
        """The non-default fields as query-string parameters (what `board_query` reads back)."""
        default_desc = self.sort not in ("rank", "system")
        order = "" if self.descending == default_desc else ("desc" if self.descending else "asc")
        params = {"sort": self.sort if self.sort != "rank" else "", "order": order,
                  "type": self.type, "framework": self.framework, "base_model": self.base_model,
                  "q": self.search, "open_source": self.open_source, "since": self.since.isoformat() if self.since else "",
                  "until": self.until.isoformat() if self.until else ""}
        return {k: v for k, v in params.items() if v}


def _date(value: str, name: str) -> dt.date | None:
    if not value:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError as exc:
        raise ValueError(f"{name} must be a date as YYYY-MM-DD, not {value!r}") from exc


def board_query(params) -> BoardQuery:
    """A BoardQuery from query parameters (a QueryDict or dict): sort, order (`asc`/`desc`; default: desc for
    metrics and date, asc for rank and system), type, framework, base_model, q, since, until. Raises ValueError
    with a readable message for an unknown sort key or order, or a malformed date."""
    sort = (params.get("sort") or "rank").strip()
    if sort not in SORT_KEYS:
        raise ValueError(f"unknown sort {sort!r}: use one of {', '.join(SORT_KEYS)}")
    order = (params.get("order") or "").strip()
    if order not in ("", "asc", "desc"):
        raise ValueError(f"unknown order {order!r}: use asc or desc")
    open_source = (params.get("open_source") or "").strip().lower()
    if open_source not in ("", "yes", "no"):
        raise ValueError(f"unknown open_source {open_source!r}: use yes or no")
    descending = order == "desc" if order else sort not in ("rank", "system")
    return BoardQuery(sort=sort, descending=descending, type=(params.get("type") or "").strip(),
                      framework=(params.get("framework") or "").strip(),
                      base_model=(params.get("base_model") or "").strip(), search=(params.get("q") or "").strip(),
                      open_source=open_source,
                      since=_date((params.get("since") or "").strip(), "since"),
                      until=_date((params.get("until") or "").strip(), "until"))


def _facts(row: LeaderboardRow) -> dict[str, Any]:
    if row.reported:
        return {"name": row.reported.system, "type": row.reported.type, "framework": row.reported.system,
                "base_model": row.reported.base_model, "date": row.reported.source_date, "open_source": False}
    s = row.run.submission
    return {"name": s.system.name, "type": s.system.type, "framework": s.system.agent_framework,
            "base_model": s.system.base_model, "date": s.created_at.date(), "open_source": s.system.is_open_source}


def board_filter(rows: list[LeaderboardRow], *, query: BoardQuery) -> list[LeaderboardRow]:
    """The rows of one view that pass `query`'s filters, in its order. Ranks stay those of the whole board (a
    filtered view is a window on the ranking, not a new one). Sorting on a metric puts rows without it (AC n/a,
    a published row's Solved) last whatever the direction; equal values keep the rank order."""
    kept = []
    for row in rows:
        f = _facts(row)
        if query.type and f["type"].lower() != query.type.lower():
            continue
        if query.framework and f["framework"].lower() != query.framework.lower():
            continue
        if query.base_model and f["base_model"].lower() != query.base_model.lower():
            continue
        if query.search and query.search.lower() not in f["name"].lower():
            continue
        if query.open_source and f["open_source"] != (query.open_source == "yes"):
            continue
        if query.since and f["date"] < query.since or query.until and f["date"] > query.until:
            continue
        kept.append(row)
    if query.sort == "rank":
        return list(reversed(kept)) if query.descending else kept
    if query.sort in ("date", "system"):
        key = (lambda r: _facts(r)["date"]) if query.sort == "date" else (lambda r: _facts(r)["name"].lower())
        return sorted(kept, key=key, reverse=query.descending)
    present = [r for r in kept if r.metrics.get(query.sort) is not None]
    absent = [r for r in kept if r.metrics.get(query.sort) is None]
    return sorted(present, key=lambda r: r.metrics[query.sort], reverse=query.descending) + absent


def board_choices(rows: list[LeaderboardRow]) -> dict[str, list[str]]:
    """The values the filter form offers, from every view's rows: {"type": [(value, label)], "framework": [...],
    "base_model": [...]} (sorted, blanks left out)."""
    facts = [_facts(r) for r in rows]
    return {"type": list(System.Type.choices),
            "framework": sorted({f["framework"] for f in facts if f["framework"]}, key=str.lower),
            "base_model": sorted({f["base_model"] for f in facts if f["base_model"]}, key=str.lower)}


# --- cite and reproduce ---------------------------------------------------------------------------------------
_BIB_SPECIAL = re.compile(r"([&%$#_])")


def _bib(value: str) -> str:
    """A BibTeX field value: LaTeX's special characters escaped, braces dropped (they would unbalance it)."""
    return _BIB_SPECIAL.sub(r"\\\1", str(value).replace("{", "").replace("}", ""))


def _bibtex(kind: str, key: str, fields: list[tuple[str, str]]) -> str:
    fields = [(name, value) for name, value in fields if value]
    width = max(len(name) for name, _ in fields)
    body = ",\n".join(f"  {name.ljust(width)} = {{{value}}}" for name, value in fields)
    return f"@{kind}{{{key},\n{body}\n}}"


def paper_bibtex(*, benchmark: Benchmark) -> str | None:
    """A BibTeX entry for the benchmark's paper, from its manifest's `paper` facts (benchmark.info): its own
    `bibtex` verbatim when given, else built from `title`, `authors` (BibTeX form, e.g. "Peng and others"),
    `venue`, `year` (else the first 4-digit year in the venue) and `url` (an arXiv URL also gives `eprint`).
    None when the manifest names no paper."""
    paper = (benchmark.info or {}).get("paper") or {}
    if not paper.get("title"):
        return None
    if paper.get("bibtex"):
        return str(paper["bibtex"]).strip()
    venue = str(paper.get("venue") or "")
    year = str(paper.get("year") or next(iter(re.findall(r"\b(?:19|20)\d\d\b", venue)), ""))
    url = str(paper.get("url") or "")
    arxiv = re.search(r"arxiv\.org/(?:abs|pdf)/([0-9]{4}\.[0-9]{4,5})", url)
    first = str(paper.get("authors") or "").split(" and ")[0].split(",")[0].split()
    key = f"{re.sub(r'[^a-z]', '', first[-1].lower()) if first else ''}{year}{re.sub(r'[^a-z0-9]', '', benchmark.name.lower())}"
    fields = [("title", "{" + _bib(paper["title"]) + "}"), ("author", _bib(paper.get("authors") or "")),
              ("booktitle" if venue else "note", _bib(venue)), ("year", year)]
    if arxiv:
        fields += [("eprint", arxiv.group(1)), ("archivePrefix", "arXiv")]
    fields.append(("url", url))
    return _bibtex("inproceedings" if venue else "misc", key, fields)


def leaderboard_bibtex(*, split: Split, site_url: str, accessed: dt.date) -> str:
    """A BibTeX @misc entry for this leaderboard (the split's board at `site_url`), stating the benchmark version,
    the evaluator version and the scoring specification, and the date it was read."""
    title = split.benchmark.title or split.benchmark.name
    return _bibtex("misc", f"{re.sub(r'[^a-z0-9]', '', split.benchmark.name.lower())}leaderboard{accessed.year}", [
        ("title", "{" + _bib(f"{title} Leaderboard ({split.name} split)") + "}"),
        ("howpublished", "\\url{" + site_url + "}"),
        ("note", _bib(f"benchmark version {split.benchmark.version[:12]}, evaluator {EVALUATOR_VERSION}, "
                      f"scoring specification v2; accessed {accessed.isoformat()}")),
        ("year", str(accessed.year))])


def reproduce_commands(*, run, archive_name: str = "") -> list[str]:
    """The shell commands that re-score a finished run offline with this project (README "Offline"): import the
    benchmark at its pinned source when the manifest names one, then `manage.py evaluate <archive> --benchmark
    <name> --split <split> --benchmark-version <sha12> --json report.json` (the archive is the submission's own,
    which its team can download). `run` is an EvaluationRun with its benchmark and split."""
    benchmark = run.benchmark
    source = (benchmark.info or {}).get("source") or {}
    commands = []
    if source.get("url"):
        parts = [".venv/bin/python manage.py import_benchmark", source["url"]]
        if source.get("commit"):
            parts += ["--commit", source["commit"]]
        if source.get("subdir"):
            parts += ["--subdir", source["subdir"]]
        manifest = Path(settings.BASE_DIR) / "benchmarks" / benchmark.name / "benchmark.json"
        parts += ["--manifest", f"benchmarks/{benchmark.name}/benchmark.json"] if manifest.is_file() else \
            ["--name", benchmark.name]
        commands.append(" ".join(parts))
    archive = archive_name or f"submission-{run.submission_id}.zip"
    split = run.split.name if run.split else "verified"
    commands.append(f".venv/bin/python manage.py evaluate {_shell(archive)} --benchmark {benchmark.name} "
                    f"--split {split} --benchmark-version {benchmark.version[:12]} --json report.json")
    return commands


def _shell(word: str) -> str:
    """`word` quoted for a POSIX shell when it holds anything but safe characters."""
    return word if re.fullmatch(r"[A-Za-z0-9._/+-]+", word) else "'" + word.replace("'", "'\"'\"'") + "'"


def environment_stamps(*, run) -> dict[str, str]:
    """What a run was scored with: evaluator version, sandbox backend and isolation, then the tool versions of
    the worker's sandbox (python, java, maven, uv, ... as recorded on the run). Blank values left out."""
    stamps = {"evaluator": run.evaluator_version, "backend": run.backend, "isolation": run.isolation,
              "benchmark version": run.benchmark.version}
    stamps.update({str(k): str(v) for k, v in (run.environment or {}).items()})
    return {k: v for k, v in stamps.items() if v}
