"""Writes for benchmarks, tasks, splits, teams and systems (HackSoft styleguide: `<entity>_<action>`)."""
from __future__ import annotations

import shutil
import uuid
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from .benchmark_files import BenchmarkSource, TaskSource
from .models import Benchmark, ReportedResult, Split, System, Task, Team
from .reported_files import METRICS, ReportedRowSource, ReportedSource


@dataclass(frozen=True)
class ImportOutcome:
    """What `benchmark_import` did: the benchmark row and whether it was new."""

    benchmark: Benchmark
    created: bool


def _store_task_files(task: TaskSource, storage: Path) -> None:
    hidden = storage / "tasks" / task.name
    for path in task.hidden_files:
        target = hidden / path.relative_to(task.folder)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
    if task.reference_dir:
        shutil.copytree(task.reference_dir, storage / "references" / task.name, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__", "target", ".venv", "venv"), dirs_exist_ok=True)


def _store_files(source: BenchmarkSource) -> Path:
    """Copy hidden files and references to BENCHMARK_ROOT/<name>/<version>/ (content-addressed: an
    existing complete copy of the same version is reused; a new copy is built aside and renamed in)."""
    storage = Path(settings.BENCHMARK_ROOT) / source.name / source.version[:16]
    if (storage / ".complete").exists():
        return storage
    staging = storage.with_name(f"{storage.name}.{uuid.uuid4().hex[:8]}.tmp")
    for task in source.tasks:
        _store_task_files(task, staging)
    (staging / ".complete").write_text(source.version)
    staging.chmod(0o700)
    try:
        staging.rename(storage)
    except OSError:  # another import finished the same version first
        shutil.rmtree(staging, ignore_errors=True)
    return storage


def benchmark_import(*, source: BenchmarkSource, test_counts: dict[str, int] | None = None) -> ImportOutcome:
    """Store a benchmark read by `read_benchmark`: files to BENCHMARK_ROOT, rows to the database.

    Re-importing an unchanged folder returns the existing version (created=False). A changed folder
    creates a new version and makes it current; older versions and their results stay.
    `test_counts` ({task: collected count}) raises N above the static count where larger.
    """
    existing = Benchmark.objects.filter(name=source.name, version=source.version).first()
    if existing:
        return ImportOutcome(existing, False)
    storage = _store_files(source)
    counts = test_counts or {}
    with transaction.atomic():
        Benchmark.objects.filter(name=source.name).update(is_current=False)
        benchmark = Benchmark.objects.create(name=source.name, title=source.title or source.name,
                                             version=source.version, storage_dir=str(storage), info=source.info)
        rows = {}
        for t in source.tasks:
            rows[t.name] = Task.objects.create(
                benchmark=benchmark, name=t.name, language=t.language, port=t.port, framework=t.framework,
                framework_guessed=t.framework_guessed, domain=t.domain, readme=t.readme,
                declared_endpoints=t.endpoints, tests_total=max(t.static_count, counts.get(t.name) or 0),
                handout_files=t.handout_files, has_reference=t.has_reference, port_source=t.port_source[:300],
                suite_kind=t.suite_kind, fixes=t.fixes, defects=t.defects,
            )
        for split_name, members in source.splits.items():
            split = Split.objects.create(benchmark=benchmark, name=split_name)
            split.tasks.set([rows[m] for m in members])
    return ImportOutcome(benchmark, True)


def task_hidden_dir(task: Task) -> Path:
    """The private folder holding the task's hidden files."""
    return Path(task.benchmark.storage_dir) / "tasks" / task.name


def task_reference_dir(task: Task) -> Path | None:
    """The private folder holding the task's reference solution, or None."""
    path = Path(task.benchmark.storage_dir) / "references" / task.name
    return path if path.is_dir() else None


def task_set_reference_status(*, task: Task, status: str, detail: str, runs: list[dict] | None = None) -> Task:
    """Record whether the reference solution passes its own suite (`passed`, `flaky`, `failed`, `none`) and, when
    given, each check run as {"outcome", "passed", "total", "seconds"} (the task page's flake rate)."""
    task.reference_status = status
    task.reference_detail = detail[:500]
    task.reference_runs = runs or []
    task.save(update_fields=["reference_status", "reference_detail", "reference_runs"])
    return task


def team_for_user(*, user: User) -> Team:
    """The user's team, creating a personal team named after the user on first use."""
    team = user.teams.order_by("pk").first()
    if team is None:
        name, n = user.username, 1
        while Team.objects.filter(name=name).exists():
            n += 1
            name = f"{user.username}-{n}"
        team = Team.objects.create(name=name)
        team.members.add(user)
    return team


def system_create(*, team: Team, name: str, agent_framework: str = "", base_model: str = "", type: str = "agent",
                  url: str = "", description: str = "") -> System:
    """Create a system owned by `team`. Raises django.core.exceptions.ValidationError on bad fields."""
    system = System(team=team, name=name, agent_framework=agent_framework, base_model=base_model, type=type,
                    url=url, description=description)
    system.full_clean()
    system.save()
    return system


@dataclass(frozen=True)
class ReportedImportOutcome:
    """What `reported_results_import` did, as row labels (`System · base model`). `unverified`: verified rows
    whose published values, denominators or findings changed, so their verification was cleared; `removed`: rows
    no longer in the file (deleted), `removed_verified` those of them that were verified."""

    created: list[str]
    updated: list[str]
    unchanged: list[str]
    unverified: list[str]
    removed: list[str]
    removed_verified: list[str]


#: Every published value column; a language the source does not report is stored as None.
VALUE_FIELDS = tuple(f"{language}_{metric}" for language in ("python", "java") for metric in METRICS)
#: Fields whose change voids an admin's verification.
VERIFIED_FIELDS = (*VALUE_FIELDS, "denominators", "findings")


def _reported_fields(source: ReportedSource, row: ReportedRowSource) -> dict:
    return {"source": source.source, "source_url": source.source_url, "source_date": source.source_date,
            "paper": source.paper, "paper_url": source.paper_url, "denominators": source.denominators,
            **{key: row.values.get(key) for key in VALUE_FIELDS}, "type": row.type, "line": row.line,
            "consistent": row.consistent, "findings": [f.as_dict() for f in row.findings]}


def reported_results_import(*, source: ReportedSource) -> ReportedImportOutcome:
    """Store the rows of a published-results file read by `read_reported`, in one transaction (a failure stores
    nothing). Rows are matched on (benchmark, split, system, base model); a verified row whose values,
    denominators or findings change loses its verification; rows of the same benchmark and split missing from
    the file are deleted."""
    outcome = ReportedImportOutcome([], [], [], [], [], [])
    scope = ReportedResult.objects.filter(benchmark_name=source.benchmark, split_name=source.split)
    with transaction.atomic():
        existing = {(r.system, r.base_model): r for r in scope.select_for_update()}
        for row in source.rows:
            fields = _reported_fields(source, row)
            result = existing.pop((row.system, row.base_model), None)
            if result is None:
                result = ReportedResult.objects.create(benchmark_name=source.benchmark, split_name=source.split,
                                                       system=row.system, base_model=row.base_model, **fields)
                outcome.created.append(result.label)
                continue
            if all(getattr(result, k) == v for k, v in fields.items()):
                outcome.unchanged.append(result.label)
                continue
            if result.is_verified and any(getattr(result, k) != fields[k] for k in VERIFIED_FIELDS):
                fields.update(verified_at=None, verified_by=None)
                outcome.unverified.append(result.label)
            for key, value in fields.items():
                setattr(result, key, value)
            result.save()
            outcome.updated.append(result.label)
        for result in existing.values():
            outcome.removed.append(result.label)
            if result.is_verified:
                outcome.removed_verified.append(result.label)
            result.delete()
    return outcome


def reported_result_verify(*, result: ReportedResult, user: User) -> ReportedResult:
    """Let a reported row join the ranked tables, recording who verified it and when (a row already verified is
    left as it is). Raises ValidationError when the check found anything: a value that cannot come from the
    stated task and endpoint counts, or a Pass@1 above its DSR (a definition other than docs/scoring.md
    "Metrics per task")."""
    if result.findings:
        problems = "; ".join(f["message"] for f in result.findings)
        raise ValidationError(f"{result.label} cannot be verified: {problems}")
    if not result.is_verified:
        result.verified_at, result.verified_by = timezone.now(), user
        result.save(update_fields=["verified_at", "verified_by"])
    return result


def reported_result_unverify(*, result: ReportedResult) -> ReportedResult:
    """Take a reported row back out of the ranked tables."""
    result.verified_at, result.verified_by = None, None
    result.save(update_fields=["verified_at", "verified_by"])
    return result
