"""Reads for benchmarks, splits and the ranked leaderboard (SCORING.md "Ranking")."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Prefetch, QuerySet

from evaluation.grading.ranking import RankInput, rank_rows
from evaluation.models import EvaluationRun, RunStatus, TaskResult

from .models import Benchmark, Split, Task

LANGUAGE_VIEWS = ("python", "java", "overall")


class NotFound(LookupError):
    """The benchmark, split or language asked for does not exist; the message names it."""


def split_get(*, benchmark: str | None = None, split: str | None = None) -> Split:
    """The named split of the current version of a benchmark (defaults from settings). Raises NotFound."""
    name = benchmark or settings.DEFAULT_BENCHMARK
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


@dataclass(frozen=True)
class LeaderboardRow:
    """One ranked row: the system's latest finished public run on the split, metrics for one language view."""

    rank: int
    tied_with_leader: bool
    run: EvaluationRun
    metrics: dict[str, Any]

    @property
    def system(self):
        return self.run.submission.system

    def as_dict(self) -> dict[str, Any]:
        """JSON shape of the leaderboard API row."""
        s = self.run.submission
        return {
            "rank": self.rank, "tied_with_leader": self.tied_with_leader,
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

    Only finished runs are ranked; each system appears once (its latest finished public run).
    """
    if language not in LANGUAGE_VIEWS:
        raise NotFound(f"unknown language {language!r}: use one of {', '.join(LANGUAGE_VIEWS)}")
    task_names = list(split_tasks(split=split, language=language).values_list("name", flat=True))
    if not task_names:
        return []
    inputs, by_key = [], {}
    for run in _latest_runs(split):
        summary = run.summary["overall"] if language == "overall" else run.summary["by_language"].get(language)
        if not summary:
            continue
        per_task = {r.task.name: r.pass_at_1 for r in run.results.all()}
        by_key[run.pk] = (run, summary)
        inputs.append(RankInput(key=run.pk, pass_at_1=summary["pass_at_1"], ac=summary["ac"], dsr=summary["dsr"],
                                submitted_at=run.submission.created_at,
                                per_task_pass=[per_task.get(n, 0.0) for n in task_names]))
    return [LeaderboardRow(rank=r.rank, tied_with_leader=r.tied_with_leader, run=by_key[r.key][0],
                           metrics=by_key[r.key][1]) for r in rank_rows(inputs)]
