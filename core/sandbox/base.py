"""The interface every sandbox backend implements (like Django's EMAIL_BACKEND pattern).

A backend is created once per worker; `open_task()` gives a `TaskSandbox` that owns every process,
namespace and file of one task evaluation until `close()`.
"""
from __future__ import annotations

import abc
import enum
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, ContextManager, Iterable, Mapping, Sequence, TypeVar

from .cgroups import ResourceLimits

T = TypeVar("T")

#: Logs kept per phase (docs/scoring.md "What a submitter may see": each capped at 64 KiB).
LOG_CAP_BYTES = 64 * 1024


class SandboxError(RuntimeError):
    """The sandbox itself could not be created or used: a platform fault (outcome `harness_error`)."""


class Role(str, enum.Enum):
    """Who a command runs as. `install` may reach the package index; the others have no network."""

    INSTALL = "install"
    SERVICE = "service"
    RUNNER = "runner"


@dataclass(frozen=True)
class ExecResult:
    """A finished command: exit code (None when killed at the time limit), capped output, seconds."""

    returncode: int | None
    output: str
    timed_out: bool
    duration: float

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out


@dataclass(frozen=True)
class Mount:
    """A host path made visible inside the sandbox at the same path; `writable` for the role's uid."""

    path: Path
    writable: bool = False


class ServiceHandle(abc.ABC):
    """The service started from start.sh: every process it leaves behind."""

    @abc.abstractmethod
    def alive(self) -> bool:
        """True while at least one process of the service (besides the sandbox's own keeper) runs."""

    @abc.abstractmethod
    def log(self) -> str:
        """What the service printed so far, capped at LOG_CAP_BYTES."""

    @abc.abstractmethod
    def stop(self) -> None:
        """Kill every process of the service now (before the task's teardown), freeing its ports."""


class TaskSandbox(abc.ABC):
    """Everything one task's evaluation runs in. Use as a context manager: `close()` kills all."""

    isolation: str = "process"

    @abc.abstractmethod
    def run(self, argv: Sequence[str], *, role: Role, cwd: Path, env: Mapping[str, str], timeout: float,
            mounts: Sequence[Mount] = ()) -> ExecResult:
        """Run argv to completion (killed after `timeout` seconds) and return its capped output."""

    @abc.abstractmethod
    def start_service(self, argv: Sequence[str], *, cwd: Path, env: Mapping[str, str],
                      mounts: Sequence[Mount] = ()) -> ServiceHandle:
        """Start the service in the background with no network but loopback."""

    @abc.abstractmethod
    def owner(self, role: Role) -> tuple[int, int] | None:
        """(uid, gid) that files used by `role` must belong to, or None when commands run as the worker."""

    @abc.abstractmethod
    def in_network(self, fn: Callable[[], T]) -> T:
        """Call fn (platform code) where 127.0.0.1 is the service's loopback; returns its result."""

    @abc.abstractmethod
    def egress(self, *, allowed_hosts: Iterable[str], avoid_port: int) -> ContextManager[dict[str, str]]:
        """While entered, let install commands reach `allowed_hosts` (HTTPS only); yields env vars
        (proxy settings) to pass to them. `avoid_port` is the task's own port."""

    @abc.abstractmethod
    def close(self) -> None:
        """Kill every process of the task and release namespaces. Idempotent."""

    def __enter__(self) -> "TaskSandbox":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SandboxBackend(abc.ABC):
    """Creates task sandboxes. `name` and `isolation` are stamped on every result."""

    name: str = "base"
    isolation: str = "process"
    #: What a task's processes may use together (memory in bytes, CPUs): the local and docker backends enforce it;
    #: the JVMs of a task are sized by it (core.engine.runner.jvm_sizing).
    limits: ResourceLimits = ResourceLimits()

    @abc.abstractmethod
    def open_task(self, *, key: str, port: int, work_dir: Path) -> TaskSandbox:
        """A sandbox for one task; `key` is unique per evaluation, `work_dir` is writable by it.

        Raises SandboxError when it cannot be created.
        """

    def sweep(self) -> int:
        """Remove what a crashed worker left behind; returns how many items were removed."""
        return 0

    def shares_host_ports(self) -> bool:
        """True when tasks listen on the host's loopback (two tasks on one port must not overlap)."""
        return False


#: Strength of each isolation level a backend reports (`SandboxBackend.isolation`); EVALUATION_MIN_ISOLATION is
#: compared against it. An unknown level counts as the weakest.
ISOLATION_ORDER = {"process": 0, "netns+bwrap": 1, "netns+bwrap+cgroup": 2, "docker": 2}


class IsolationTooWeak(SandboxError):
    """This worker's sandbox is weaker than the required isolation: no submitted code may run here (not a
    transient fault: retrying on the same worker cannot help)."""


#: The warning every result evaluated without a sandbox carries (reports, pages, the offline command).
UNSANDBOXED_WARNING = ("evaluated WITHOUT a sandbox (isolation `process`, EVALUATION_ALLOW_UNSANDBOXED): the "
                       "repositories ran as plain processes of the host; only for trusted code, never for submissions")


def isolation_at_least(level: str, minimum: str) -> bool:
    """True when isolation `level` is at least as strong as `minimum` (both names of ISOLATION_ORDER)."""
    return ISOLATION_ORDER.get(level, 0) >= ISOLATION_ORDER.get(minimum, 0)
