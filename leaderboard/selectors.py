"""Reads for the ranked leaderboard (docs/scoring.md "Ranking"): rows per language view, published rows apart, task
health."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch

from core.grading.ranking import RankInput, rank_rows
from core.grading.metrics import task_difficulty
from evaluation.models import EvaluationRun, RunStatus, TaskResult
from leaderboard.badges import badge_keys, reported_badges, row_badges
from leaderboard.board_cache import board_cached
from leaderboard.significance import cached_paired_intervals, cached_significance_groups

from catalog.models import ReportedResult, Split, System
from catalog.selectors import (NotFound, excluded_task_names, reported_as_dict, reported_metrics, reported_rankable,
                               reported_results, reported_unranked_reason, split_tasks)

LANGUAGE_VIEWS = ("python", "java", "overall")


def reported_apart(*, split: Split, rows: list[LeaderboardRow]) -> list[ReportedResult]:
    """The split's published rows that are not among the ranked `rows` of a view, in source order."""
    ranked = {r.reported.pk for r in rows if r.reported}
    return [r for r in reported_results(benchmark=split.benchmark.name, split=split.name) if r.pk not in ranked]


def reported_apart_as_dicts(*, split: Split, language: str, rows: list[LeaderboardRow]) -> list[dict[str, Any]]:
    """`reported_apart` in the API's shape, each with `not_ranked_because` (see `reported_unranked_reason`) and its
    `badges` (leaderboard.badges.reported_badges: `reported`)."""
    task_count = split_tasks(split=split, language=language).count()
    return [{**reported_as_dict(r), "badges": badge_keys(reported_badges(r)),
             "not_ranked_because": reported_unranked_reason(r, language=language, task_count=task_count)}
            for r in reported_apart(split=split, rows=rows)]


@dataclass(frozen=True)
class LeaderboardRow:
    """One ranked row for one language view: a system's latest finished public run on the split (`run`), or a
    published result an admin verified (`reported`, with `run` None): exactly one of the two is set."""

    rank: int
    tied_with_leader: bool | None
    run: EvaluationRun | None
    metrics: dict[str, Any]
    reported: ReportedResult | None = None
    #: The row's significance group (docs/scoring.md "Significance groups"): {"position": the row's own 1-based
    #: place in the view's ranked rows, "positions": the places of its group, "ranks", "systems": their labels},
    #: the row itself included, in board order; None for a published row (no per-task values).
    significance: dict[str, list] | None = None

    @property
    def system(self):
        return self.run.submission.system if self.run else None

    @property
    def label(self) -> str:
        """The name shown in tables and charts."""
        return self.reported.label if self.reported else self.system.name

    def as_dict(self) -> dict[str, Any]:
        """JSON shape of the leaderboard API row; `origin` is `evaluated` (by us) or `reported` (by the authors,
        verified by an admin: no intervals, no Solved, `tied_with_leader` null). `badges`: the keys of the badges
        the board page shows on the row (leaderboard.badges.row_badges); `source_url`: an evaluated row's system's
        code ('' when none, as in board.json), a reported row's published source."""
        group = ({"ranks": self.significance["ranks"], "systems": self.significance["systems"]}
                 if self.significance else None)
        badges = badge_keys(row_badges(self))
        if self.reported:
            return {"rank": self.rank, "tied_with_leader": self.tied_with_leader, "significance_group": None,
                    "origin": "reported", **reported_as_dict(self.reported), **self.metrics, "badges": badges}
        s = self.run.submission
        return {
            "rank": self.rank, "tied_with_leader": self.tied_with_leader, "significance_group": group,
            "origin": "evaluated",
            "system": s.system.name, "team": s.system.team.name, "agent_framework": s.system.agent_framework,
            "base_model": s.system.base_model, "type": s.system.type, "submission": s.pk,
            "submitted_at": s.created_at.isoformat(), "evaluated_at": self.run.finished_at.isoformat(),
            "evaluator": {"version": self.run.evaluator_version, "backend": self.run.backend,
                          "isolation": self.run.isolation},
            "benchmark_version": self.run.benchmark.version, "outdated": self.run.is_outdated,
            **self.metrics, "badges": badges, "source_url": s.system.source_url,
        }


#: Rows of a view (in board order) that get a significance group; rows below get none and are in none
#: (docs/scoring.md "Significance groups": 1,225 paired bootstraps at most, a few seconds once per change).
SIGNIFICANCE_MAX_ROWS = 50

#: TaskResult fields no board read needs (engine logs and per-test cases: the bulk of a result row).
HEAVY_RESULT_FIELDS = ("logs", "cases", "durations", "endpoints")


def _latest_runs(split: Split, *, results: bool = True) -> list[EvaluationRun]:
    """Per system, its latest finished public run on this split, preferring runs on this benchmark version
    (runs on older versions of the same split stay listed, marked "scored on an older version"). With `results`
    the runs' results and their tasks come prefetched (HEAVY_RESULT_FIELDS deferred): 2 queries, or 1 without,
    whatever the number of systems. The runs' own `summary` is read, their environment is not."""
    runs = (EvaluationRun.objects.filter(status=RunStatus.FINISHED, split__name=split.name,
                                         split__benchmark__name=split.benchmark.name, submission__is_public=True)
            .select_related("submission__system__team", "benchmark").defer("environment", "error"))
    if results:
        runs = runs.prefetch_related(Prefetch("results", queryset=TaskResult.objects.select_related("task")
                                              .defer(*HEAVY_RESULT_FIELDS)))
    latest: dict[int, EvaluationRun] = {}
    for run in sorted(runs, key=lambda r: (r.benchmark_id == split.benchmark_id, r.finished_at), reverse=True):
        latest.setdefault(run.submission.system_id, run)
    return list(latest.values())


def latest_runs(*, split: Split, results: bool = True) -> list[EvaluationRun]:
    """Per system (reference systems included), its latest finished public run on the split, results and tasks
    prefetched (unless `results` is False): the runs every leaderboard view, comparison and export reads. A
    constant number of queries (2, or 1 without results)."""
    return _latest_runs(split, results=results)


def _per_task_pass(runs: list[EvaluationRun]) -> dict[int, dict[str, float]]:
    """{run pk: {task name: Pass@1}} of these runs, in one query (values only, no model rows)."""
    found: dict[int, dict[str, float]] = {run.pk: {} for run in runs}
    if runs:
        for run_id, task, value in (TaskResult.objects.filter(run_id__in=list(found)).order_by()
                                    .values_list("run_id", "task__name", "pass_at_1")):
            found[run_id][task] = value
    return found


def leaderboard_rows(*, split: Split, language: str = "overall") -> list[LeaderboardRow]:
    """Ranked rows for one language view (`python`, `java` or `overall`). Raises NotFound for other views.

    Only finished runs are ranked; each system appears once (its latest finished public run). Published results
    of this benchmark and split that an admin verified join the `python` and `java` views when they cover as many
    tasks as the split has (`reported_rankable`), ranked on their aggregates (docs/scoring.md "Ranking" order; their
    tie marker and significance group are None). Each evaluated row carries its significance group.

    The rows (ranking, paired-bootstrap ties and groups) are computed once per board version and then read from
    Django's cache (leaderboard.board_cache): a hit costs 1 query, a miss a constant number whatever the number
    of systems. The rows' runs carry no prefetched results: read those with `latest_runs` or
    prefetch_related_objects.
    """
    if language not in LANGUAGE_VIEWS:
        raise NotFound(f"unknown language {language!r}: use one of {', '.join(LANGUAGE_VIEWS)}")
    return board_cached(("rows", split.pk, language), lambda: _leaderboard_rows(split, language))


def _leaderboard_rows(split: Split, language: str) -> list[LeaderboardRow]:
    task_names = list(split_tasks(split=split, language=language).values_list("name", flat=True))
    if not task_names:
        return []
    excluded = set(excluded_task_names(split=split, language=language))
    scored_names = [n for n in task_names if n not in excluded]  # N = 0 tasks are left out of the means and pairing
    inputs, by_key = [], {}
    runs = [run for run in _latest_runs(split, results=False)
            if run.submission.system.type != System.Type.REFERENCE]  # an oracle, not a competitor: reference_rows
    passes = _per_task_pass(runs)
    for run in runs:
        summary = run.scores.metrics(language) if run.scores else None
        if not summary:
            continue
        per_task = passes[run.pk]
        by_key[("run", run.pk)] = {"run": run, "metrics": summary}
        inputs.append(RankInput(key=("run", run.pk), pass_at_1=summary["pass_at_1"], ac=summary["ac"],
                                dsr=summary["dsr"], submitted_at=run.submission.created_at,
                                per_task_pass=[per_task.get(n, 0.0) for n in scored_names]))
    for result in reported_results(benchmark=split.benchmark.name, split=split.name, verified=True):
        if not reported_rankable(result, language=language, task_count=len(task_names)):
            continue
        metrics = reported_metrics(result, language)
        by_key[("reported", result.pk)] = {"run": None, "reported": result, "metrics": metrics}
        published = dt.datetime.combine(result.source_date, dt.time(), tzinfo=dt.timezone.utc)
        inputs.append(RankInput(key=("reported", result.pk), pass_at_1=metrics["pass_at_1"], ac=metrics["ac"],
                                dsr=metrics["dsr"], submitted_at=published, per_task_pass=None))
    ranked = rank_rows(inputs, intervals=cached_paired_intervals)  # each pair bootstrapped once, ever
    labels = [by_key[r.key]["reported"].label if "reported" in by_key[r.key] else
              by_key[r.key]["run"].submission.system.name for r in ranked]
    # groups among the first SIGNIFICANCE_MAX_ROWS rows (docs/scoring.md "Significance groups"): the pairs grow
    # with the square of the rows
    groups = cached_significance_groups([r.row.per_task_pass if place < SIGNIFICANCE_MAX_ROWS else None
                                         for place, r in enumerate(ranked)])
    return [LeaderboardRow(rank=r.rank, tied_with_leader=r.tied_with_leader, **by_key[r.key],
                           significance=None if group is None else {
                               "position": place + 1, "positions": [p + 1 for p in group],
                               "ranks": [ranked[p].rank for p in group], "systems": [labels[p] for p in group]})
            for place, (r, group) in enumerate(zip(ranked, groups))]


def reference_rows(*, split: Split, language: str = "overall") -> list[dict[str, Any]]:
    """The reference solutions' latest finished runs on this split (systems of type `reference`), as
    {"system", "run", "metrics"} for one language view: shown apart from the ranking, never ranked. Cached per
    board version like `leaderboard_rows`."""
    if language not in LANGUAGE_VIEWS:
        raise NotFound(f"unknown language {language!r}: use one of {', '.join(LANGUAGE_VIEWS)}")
    return board_cached(("reference", split.pk, language), lambda: _reference_rows(split, language))


def _reference_rows(split: Split, language: str) -> list[dict[str, Any]]:
    rows = []
    for run in _latest_runs(split, results=False):
        if run.submission.system.type != System.Type.REFERENCE:
            continue
        metrics = run.scores.metrics(language) if run.scores else None
        if metrics:
            rows.append({"system": run.submission.system, "run": run, "metrics": metrics})
    return rows


def task_health(*, split: Split) -> list[dict[str, Any]]:
    """Per task of the split, in name order, what says whether its scores can be trusted (docs/scoring.md "Task
    defects"): {"task": Task, "name", "language", "port", "port_source", "tests_total", "excluded", "suite_kind",
    "fixes", "defects", "reference": {"status", "detail", "runs", "passed_runs", "flake_rate"},
    "systems": number of ranked systems with a run, "solved_share": share of them that solve the task (None when
    no system is scored), "mean_pass_at_1", "difficulty": metrics.TaskDifficulty.as_dict() (spread and the
    saturated / never solved / discriminating label of docs/scoring.md "Task difficulty and discrimination")}. Reference systems are not counted among the systems."""
    results: dict[str, list] = {}
    systems = 0
    for run in _latest_runs(split):
        if run.submission.system.type == System.Type.REFERENCE:
            continue
        systems += 1
        for r in run.results.all():
            results.setdefault(r.task.name, []).append(r)
    rows = []
    for task in split_tasks(split=split):
        runs = task.reference_runs or []
        passed_runs = sum(1 for c in runs if c.get("outcome") == "passed")
        scored = results.get(task.name, [])
        rows.append({
            "task": task, "name": task.name, "language": task.language, "port": task.port,
            "port_source": task.port_source, "tests_total": task.tests_total, "excluded": task.is_excluded,
            "suite_kind": task.suite_kind, "fixes": task.fixes, "defects": task.defects,
            "reference": {"status": task.reference_status, "detail": task.reference_detail, "runs": runs,
                          "passed_runs": passed_runs,
                          "flake_rate": (len(runs) - passed_runs) / len(runs) if runs else None},
            "systems": len(scored),
            "solved_share": sum(r.solved for r in scored) / len(scored) if scored else None,
            "mean_pass_at_1": sum(r.pass_at_1 for r in scored) / len(scored) if scored else None,
            "difficulty": task_difficulty(pass_values=[r.pass_at_1 for r in scored],
                                          solved_values=[r.solved for r in scored]).as_dict(),
        })
    return rows
