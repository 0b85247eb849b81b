"""Building the engine's inputs from Django settings and models (the only Django-aware engine glue)."""
from __future__ import annotations

import functools
from pathlib import Path

from django.conf import settings

from core.engine.spec import PhaseLimits, TaskSpec
from core.engine.toolchain import Toolchain, seed_maven_repo, tool_versions
from core.sandbox import SandboxBackend, get_backend
from catalog.models import Task
from catalog.bundles import task_hidden_dir


@functools.lru_cache(maxsize=1)
def sandbox_backend() -> SandboxBackend:
    """The worker's backend (EVALUATION_BACKEND), created once per process."""
    return get_backend(settings.EVALUATION_BACKEND)


@functools.lru_cache(maxsize=1)
def toolchain() -> Toolchain:
    """Tools and caches from settings (EVALUATION_CACHE_ROOT, EVALUATION_SANDBOX_PYTHON, EVALUATION_MAVEN_*,
    EVALUATION_UV_CACHE_*).

    The sandbox's Maven repository is a readable copy of EVALUATION_MAVEN_SEED (default ~/.m2/repository).
    """
    cache = Path(settings.EVALUATION_CACHE_ROOT)
    repo = seed_maven_repo(target=cache / "m2", source=Path(settings.EVALUATION_MAVEN_SEED).expanduser())
    return Toolchain(cache_root=cache, python=Path(settings.EVALUATION_SANDBOX_PYTHON), maven_repo=repo,
                     maven_offline=settings.EVALUATION_MAVEN_OFFLINE, maven_central=settings.EVALUATION_MAVEN_CENTRAL,
                     package_hosts=tuple(settings.EVALUATION_PACKAGE_HOSTS),
                     uv_cache_task_bytes=settings.EVALUATION_UV_CACHE_TASK_BYTES,
                     uv_cache_max_bytes=settings.EVALUATION_UV_CACHE_MAX_BYTES)


def work_root() -> Path:
    """Where task work folders are made (EVALUATION_WORK_ROOT), created with mode 0711."""
    root = Path(settings.EVALUATION_WORK_ROOT)
    root.mkdir(parents=True, exist_ok=True)
    root.chmod(0o711)
    return root


def task_spec(task: Task, *, hidden_dir: Path | None = None) -> TaskSpec:
    """The engine's view of a Task row."""
    return TaskSpec(
        name=task.name, language=task.language, port=task.port, hidden_dir=hidden_dir or task_hidden_dir(task),
        tests_total=task.tests_total,
        endpoints=tuple((e["method"], e["path"]) for e in task.declared_endpoints),
        limits=PhaseLimits.for_language(task.language), pytest_args=task.pytest_args,
        in_process=task.suite_kind == "in-process",
    )


@functools.lru_cache(maxsize=1)
def environment_stamp() -> dict[str, str]:
    """Tool versions of this worker's sandbox (computed once per process)."""
    return tool_versions(toolchain())
