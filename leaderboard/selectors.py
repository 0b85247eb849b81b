"""Reads for benchmarks, splits and the ranked leaderboard (SCORING.md "Ranking")."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Prefetch, QuerySet

from evaluation.grading.ranking import RankInput, rank_rows
from evaluation.models import EvaluationRun, RunStatus, TaskResult

from .models import Benchmark, ReportedResult, Split, System, Task
from .reported_files import METRICS

LANGUAGE_VIEWS = ("python", "java", "overall")


class NotFound(LookupError):
    """The benchmark, split or language asked for does not exist; the message names it."""


def default_benchmark_name() -> str:
    """The first of settings.DEFAULT_BENCHMARKS with a current version in the database (else the first named)."""
    imported = set(Benchmark.objects.filter(is_current=True, name__in=settings.DEFAULT_BENCHMARKS)
                   .values_list("name", flat=True))
    return next((n for n in settings.DEFAULT_BENCHMARKS if n in imported), settings.DEFAULT_BENCHMARKS[0])


def split_get(*, benchmark: str | None = None, split: str | None = None) -> Split:
    """The named split of the current version of a benchmark (default: the first of DEFAULT_BENCHMARKS that is
    imported, and DEFAULT_SPLIT). Raises NotFound."""
    name = benchmark or default_benchmark_name()
    bench = Benchmark.objects.filter(name=name, is_current=True).first()
    if bench is None:
        raise NotFound(f"no benchmark named {name!r}")
    found = bench.splits.filter(name=split or settings.DEFAULT_SPLIT).first()
    if found is None:
        raise NotFound(f"benchmark {name!r} has no split {split or settings.DEFAULT_SPLIT!r}")
    return found


def split_tasks(*, split: Split, language: str = "overall") -> QuerySet[Task]:
    """The split's tasks (of one language unless `overall`), by name."""
    tasks = split.tasks.order_by("name")
    return tasks if language == "overall" else tasks.filter(language=language)


def excluded_task_names(*, split: Split, language: str = "overall") -> list[str]:
    """Names of the split's tasks left out of every mean (N = 0, `Task.is_excluded`), by name."""
    return list(split_tasks(split=split, language=language).filter(tests_total=0).values_list("name", flat=True))


def reported_results(*, benchmark: str | None = None, split: str | None = None,
                     verified: bool | None = None) -> QuerySet[ReportedResult]:
    """Published results "reported by the authors", of one benchmark and/or split (by name) when given, in
    benchmark, split, source-file order; only verified (True) or only unverified (False) rows when asked."""
    rows = ReportedResult.objects.all()
    if benchmark:
        rows = rows.filter(benchmark_name=benchmark)
    if split:
        rows = rows.filter(split_name=split)
    if verified is not None:
        rows = rows.filter(verified_at__isnull=not verified)
    return rows.select_related("verified_by")


def reported_metrics(result: ReportedResult, language: str) -> dict[str, Any]:
    """The row's published values for one language (`python` or `java`) as fractions in the shape of SCORING.md's
    M (no interval, no Solved: the authors publish neither), plus `published` {metric: percent string as
    published}; a value the source does not report is None."""
    values = {m: result.value(language, m) for m in METRICS}
    return {**{m: None if v is None else float(v / 100) for m, v in values.items()},
            **{f"{m}_ci": None for m in METRICS}, "solved": None, "solved_ci": None,
            "published": {m: None if v is None else str(v) for m, v in values.items()}}


def reported_unranked_reason(result: ReportedResult, *, language: str, task_count: int) -> str | None:
    """Why a published row is not ranked in a language view, or None when it is: ranked rows are verified by an
    admin, report that language, and count as many tasks of it as the split has (numbers over another task set
    are not comparable). Never in `overall`: the authors publish no task-weighted overall value."""
    if language == "overall":
        return "the authors publish Python and Java values only, no overall value"
    if not result.is_verified:
        return "not verified by an admin"
    counted = result.denominators.get(language, {}).get("tasks")
    if result.value(language, "pass_at_1") is None or counted is None:
        return f"the source reports no {language.title()} values"
    if counted != task_count:
        return f"its values count {counted} tasks, this split has {task_count}"
    return None


def reported_rankable(result: ReportedResult, *, language: str, task_count: int) -> bool:
    """True when a published row may be ranked in a language view (see `reported_unranked_reason`)."""
    return reported_unranked_reason(result, language=language, task_count=task_count) is None


def reported_apart(*, split: Split, rows: list[LeaderboardRow]) -> list[ReportedResult]:
    """The split's published rows that are not among the ranked `rows` of a view, in source order."""
    ranked = {r.reported.pk for r in rows if r.reported}
    return [r for r in reported_results(benchmark=split.benchmark.name, split=split.name) if r.pk not in ranked]


def reported_apart_as_dicts(*, split: Split, language: str, rows: list[LeaderboardRow]) -> list[dict[str, Any]]:
    """`reported_apart` in the API's shape, each with `not_ranked_because` (see `reported_unranked_reason`)."""
    task_count = split_tasks(split=split, language=language).count()
    return [{**reported_as_dict(r),
             "not_ranked_because": reported_unranked_reason(r, language=language, task_count=task_count)}
            for r in reported_apart(split=split, rows=rows)]


def reported_as_dict(result: ReportedResult) -> dict[str, Any]:
    """JSON shape of a reported row: who, per-language published percentages, source, consistency, verification."""
    return {
        "system": result.system, "base_model": result.base_model, "type": result.type,
        "values_percent": {lang: {m: None if result.value(lang, m) is None else str(result.value(lang, m))
                                  for m in METRICS} for lang in ("python", "java")},
        "source": result.source, "source_url": result.source_url, "source_date": result.source_date.isoformat(),
        "paper": result.paper, "paper_url": result.paper_url, "denominators": result.denominators,
        "consistent": result.consistent, "findings": result.findings,
        "verified": result.is_verified,
        "verified_at": result.verified_at.isoformat() if result.verified_at else None,
    }


@dataclass(frozen=True)
class LeaderboardRow:
    """One ranked row for one language view: a system's latest finished public run on the split (`run`), or a
    published result an admin verified (`reported`, with `run` None): exactly one of the two is set."""

    rank: int
    tied_with_leader: bool | None
    run: EvaluationRun | None
    metrics: dict[str, Any]
    reported: ReportedResult | None = None

    @property
    def system(self):
        return self.run.submission.system if self.run else None

    @property
    def label(self) -> str:
        """The name shown in tables and charts."""
        return self.reported.label if self.reported else self.system.name

    def as_dict(self) -> dict[str, Any]:
        """JSON shape of the leaderboard API row; `origin` is `evaluated` (by us) or `reported` (by the authors,
        verified by an admin: no intervals, no Solved, `tied_with_leader` null)."""
        if self.reported:
            return {"rank": self.rank, "tied_with_leader": self.tied_with_leader, "origin": "reported",
                    **reported_as_dict(self.reported), **self.metrics}
        s = self.run.submission
        return {
            "rank": self.rank, "tied_with_leader": self.tied_with_leader, "origin": "evaluated",
            "system": s.system.name, "team": s.system.team.name, "agent_framework": s.system.agent_framework,
            "base_model": s.system.base_model, "type": s.system.type, "submission": s.pk,
            "submitted_at": s.created_at.isoformat(), "evaluated_at": self.run.finished_at.isoformat(),
            "evaluator": {"version": self.run.evaluator_version, "backend": self.run.backend,
                          "isolation": self.run.isolation},
            "benchmark_version": self.run.benchmark.version, "outdated": self.run.is_outdated,
            **self.metrics,
        }


def _latest_runs(split: Split) -> list[EvaluationRun]:
    """Per system, its latest finished public run on this split, preferring runs on this benchmark version
    (runs on older versions of the same split stay listed, marked "scored on an older version")."""
    runs = (EvaluationRun.objects.filter(status=RunStatus.FINISHED, split__name=split.name,
                                         split__benchmark__name=split.benchmark.name, submission__is_public=True)
            .select_related("submission__system__team", "benchmark")
            .prefetch_related(Prefetch("results", queryset=TaskResult.objects.select_related("task"))))
    latest: dict[int, EvaluationRun] = {}
    for run in sorted(runs, key=lambda r: (r.benchmark_id == split.benchmark_id, r.finished_at), reverse=True):
        latest.setdefault(run.submission.system_id, run)
    return list(latest.values())


def leaderboard_rows(*, split: Split, language: str = "overall") -> list[LeaderboardRow]:
    """Ranked rows for one language view (`python`, `java` or `overall`). Raises NotFound for other views.

    Only finished runs are ranked; each system appears once (its latest finished public run). Published results
    of this benchmark and split that an admin verified join the `python` and `java` views when they cover as many
    tasks as the split has (`reported_rankable`), ranked on their aggregates (SCORING.md "Ranking" order; their
    tie marker is None).
    """
    if language not in LANGUAGE_VIEWS:
        raise NotFound(f"unknown language {language!r}: use one of {', '.join(LANGUAGE_VIEWS)}")
    task_names = list(split_tasks(split=split, language=language).values_list("name", flat=True))
    if not task_names:
        return []
    excluded = set(excluded_task_names(split=split, language=language))
    scored_names = [n for n in task_names if n not in excluded]  # N = 0 tasks are left out of the means and pairing
    inputs, by_key = [], {}
    for run in _latest_runs(split):
        if run.submission.system.type == System.Type.REFERENCE:
            continue  # an oracle, not a competitor: see reference_rows
        summary = run.summary["overall"] if language == "overall" else run.summary["by_language"].get(language)
        if not summary:
            continue
        per_task = {r.task.name: r.pass_at_1 for r in run.results.all()}
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
    return [LeaderboardRow(rank=r.rank, tied_with_leader=r.tied_with_leader, **by_key[r.key])
            for r in rank_rows(inputs)]


def reference_rows(*, split: Split, language: str = "overall") -> list[dict[str, Any]]:
    """The reference solutions' latest finished runs on this split (systems of type `reference`), as
    {"system", "run", "metrics"} for one language view: shown apart from the ranking, never ranked."""
    rows = []
    for run in _latest_runs(split):
        if run.submission.system.type != System.Type.REFERENCE:
            continue
        metrics = run.summary["overall"] if language == "overall" else run.summary["by_language"].get(language)
        if metrics:
            rows.append({"system": run.submission.system, "run": run, "metrics": metrics})
    return rows


def task_health(*, split: Split) -> list[dict[str, Any]]:
    """Per task of the split, in name order, what says whether its scores can be trusted (docs/scoring.md "Task
    defects"): {"task": Task, "name", "language", "port", "port_source", "tests_total", "excluded", "suite_kind",
    "fixes", "defects", "reference": {"status", "detail", "runs", "passed_runs", "flake_rate"},
    "systems": number of ranked systems with a run, "solved_share": share of them that solve the task (None when
    no system is scored), "mean_pass_at_1"}. Reference systems are not counted among the systems."""
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
        })
    return rows
