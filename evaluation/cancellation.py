"""Stopping a task's evaluation when its run is cancelled, through the sandbox's own teardown.

The pipeline wraps the configured backend in a `CancellableBackend` for each task it evaluates. When the run is
cancelled (the heartbeat thread of evaluation.pipeline sees it), `CancelWatch.cancel()` closes every sandbox the
task opened: `TaskSandbox.close()` kills its processes (services, installs, test runs), removes its cgroup and
namespace and releases its users, exactly as at the end of a normal task. Any later use of the sandbox, and the
next phase the engine reports, raise `RunCancelled`, so the engine's own `finally` removes the task's work folder
and nothing is stored.
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from core.sandbox import SandboxBackend, TaskSandbox


class RunCancelled(Exception):
    """The run of this task was cancelled: stop, store nothing, retry nothing (not a platform fault)."""


class CancelWatch:
    """Whether a task's run was cancelled, and the sandboxes to tear down when it is. Thread-safe."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._boxes: list[TaskSandbox] = []

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def check(self) -> None:
        """Raise RunCancelled once the run is cancelled."""
        if self._event.is_set():
            raise RunCancelled("the run was cancelled")

    def register(self, box: TaskSandbox) -> None:
        """Track an opened sandbox; one opened after the cancel is closed at once (and RunCancelled raised)."""
        with self._lock:
            self._boxes.append(box)
            late = self._event.is_set()
        if late:
            box.close()
            raise RunCancelled("the run was cancelled")

    def cancel(self) -> None:
        """Mark cancelled and close every sandbox opened so far (kills what runs in it; idempotent)."""
        with self._lock:
            self._event.set()
            boxes = list(self._boxes)
        for box in boxes:
            box.close()


class _CancellableSandbox(TaskSandbox):
    """A TaskSandbox that refuses every use once its run is cancelled; close() is serialised (the heartbeat
    thread and the engine may both close it)."""

    def __init__(self, inner: TaskSandbox, watch: CancelWatch) -> None:
        self.inner, self.watch = inner, watch
        self.isolation = inner.isolation
        self._close_lock = threading.Lock()

    def run(self, argv, *, role, cwd, env, timeout, mounts=()):
        self.watch.check()
        result = self.inner.run(argv, role=role, cwd=cwd, env=env, timeout=timeout, mounts=mounts)
        self.watch.check()  # killed by the cancel: its exit says nothing about the submission
        return result

    def start_service(self, argv, *, cwd, env, mounts=()):
        self.watch.check()
        return self.inner.start_service(argv, cwd=cwd, env=env, mounts=mounts)

    def owner(self, role):
        return self.inner.owner(role)

    def in_network(self, fn):
        self.watch.check()
        result = self.inner.in_network(fn)
        self.watch.check()
        return result

    def egress(self, *, allowed_hosts, avoid_port):
        self.watch.check()
        return self.inner.egress(allowed_hosts=allowed_hosts, avoid_port=avoid_port)

    def close(self) -> None:
        with self._close_lock:
            self.inner.close()

    def __getattr__(self, name: str) -> Any:  # anything backend-specific the engine may read
        return getattr(self.inner, name)


class CancellableBackend(SandboxBackend):
    """The configured backend, with every sandbox it opens registered on `watch` (see module docstring)."""

    def __init__(self, inner: SandboxBackend, watch: CancelWatch) -> None:
        self.inner, self.watch = inner, watch
        self.name, self.isolation = inner.name, inner.isolation

    def open_task(self, *, key: str, port: int, work_dir: Path) -> TaskSandbox:
        self.watch.check()
        box = _CancellableSandbox(self.inner.open_task(key=key, port=port, work_dir=work_dir), self.watch)
        self.watch.register(box)
        return box

    def sweep(self) -> int:
        return self.inner.sweep()

    def shares_host_ports(self) -> bool:
        return self.inner.shares_host_ports()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)
