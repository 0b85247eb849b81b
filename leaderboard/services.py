"""Writes for benchmarks, tasks, splits, teams and systems (HackSoft styleguide: `<entity>_<action>`)."""
from __future__ import annotations

import shutil
import uuid
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction

from .benchmark_files import BenchmarkSource, TaskSource
from .models import Benchmark, Split, System, Task, Team


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
    if task.has_reference:
        shutil.copytree(task.folder / "reference", storage / "references" / task.name,
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
                                             version=source.version, storage_dir=str(storage))
        rows = {}
        for t in source.tasks:
            rows[t.name] = Task.objects.create(
                benchmark=benchmark, name=t.name, language=t.language, port=t.port, framework=t.framework,
                framework_guessed=t.framework_guessed, domain=t.domain, readme=t.readme,
                declared_endpoints=t.endpoints, tests_total=max(t.static_count, counts.get(t.name) or 0),
                handout_files=t.handout_files, has_reference=t.has_reference,
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


def task_set_reference_status(*, task: Task, status: str, detail: str) -> Task:
    """Record whether the reference solution passes its own suite (`passed`, `failed`, `none`)."""
    task.reference_status = status
    task.reference_detail = detail[:500]
    task.save(update_fields=["reference_status", "reference_detail"])
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
