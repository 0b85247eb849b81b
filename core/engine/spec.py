"""Inputs and outputs of the engine (frozen dataclasses; times in seconds)."""
from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field
from pathlib import Path

from core.grading import metrics


class Phase(str, enum.Enum):
    """The phases of one task's run, in order (docs/scoring.md "The run of one task"); `on_phase` callbacks get
    them as they begin."""

    MATERIALIZE = "materialize"
    INSTALL = "install"
    START = "start"
    PROBE = "probe"
    TEST = "test"
    TEARDOWN = "teardown"


@dataclass(frozen=True)
class PhaseLimits:
    """Time limits in seconds (docs/scoring.md "The run of one task", where the defaults are) and the
    size cap of the task's work folder in bytes."""

    install: float = 600.0
    start: float = 30.0
    test_case: float = 30.0
    test_suite: float = 300.0
    disk_bytes: int = 2 * 1024 ** 3  # everything the task writes (repo copy, environment, build, runner)

    @classmethod
    def for_language(cls, language: str, **overrides: float) -> "PhaseLimits":
        """Defaults for `python` or `java` (start 60 s and suite 600 s for Java), then overrides."""
        base = cls(start=60.0, test_suite=600.0) if language == "java" else cls()
        return cls(**{**asdict(base), **{k: v for k, v in overrides.items() if v is not None}})


@dataclass(frozen=True)
class TaskSpec:
    """What the engine needs to know about one task.

    `hidden_dir` is the private copy of the task folder made at import (README.md, tests/ or
    src/test/, pytest.ini, requirements.txt, pom.xml). `endpoints` are (method, path) pairs. `pytest_args` are the
    benchmark's documented fixes for its suite (e.g. `("-o", "python_classes=RBACServiceTester")`), appended to
    every pytest call on it (docs/scoring.md "Task defects"). `in_process`: the suite starts the application itself
    (Java `App.start(0)`, `@SpringBootTest`, ...), so the deployed service is stopped after the probe and before the
    tests, leaving the task's port free in its network namespace (docs/scoring.md "The test phase").
    """

    name: str
    language: str
    port: int
    hidden_dir: Path
    tests_total: int
    endpoints: tuple[tuple[str, str], ...] = ()
    limits: PhaseLimits = field(default_factory=PhaseLimits)
    pytest_args: tuple[str, ...] = ()
    in_process: bool = False


@dataclass(frozen=True)
class EndpointEvidence:
    """One declared endpoint and how its implementation was decided: `probe`, `static` or `none`."""

    method: str
    path: str
    implemented: bool
    evidence: str


@dataclass(frozen=True)
class TestCaseResult:
    """One hidden test case: its name and passed/failed/error/skipped (shown only for public splits)."""

    name: str
    status: str


@dataclass(frozen=True)
class TaskEvaluation:
    """The outcome of one task (docs/scoring.md "Metrics per task" and "Failure taxonomy").

    `durations` maps install/start/test to seconds; `logs` maps install/build/start to text capped at
    64 KiB; `detail` is a one-line explanation of the outcome for the report.
    """

    task: str
    outcome: str
    dsr: int
    tests_passed: int
    tests_total: int
    endpoints: tuple[EndpointEvidence, ...] = ()
    durations: dict = field(default_factory=dict)
    logs: dict = field(default_factory=dict)
    cases: tuple[TestCaseResult, ...] = ()
    detail: str = ""

    @property
    def pass_at_1(self) -> float:
        """P / N; 0 when N is 0 (metrics.pass_at_1)."""
        return metrics.pass_at_1(passed=self.tests_passed, total=self.tests_total)

    @property
    def solved(self) -> int:
        """1 when P = N > 0 (metrics.solved)."""
        return metrics.solved(passed=self.tests_passed, total=self.tests_total)

    @property
    def ac_declared(self) -> int:
        return len(self.endpoints)

    @property
    def ac_implemented(self) -> int:
        return sum(1 for e in self.endpoints if e.implemented)

    @property
    def ac(self) -> float | None:
        """Implemented / declared endpoints; None (n/a) when the task declares none (metrics.ac_ratio)."""
        return metrics.ac_ratio(implemented=self.ac_implemented, declared=self.ac_declared)
