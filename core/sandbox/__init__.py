"""Backends that run untrusted processes (docs/architecture.md "Shape"). Django-free.

`get_backend(name, **options)` returns a `SandboxBackend`; every backend hands out one `TaskSandbox`
per evaluated task, which runs commands, starts the service and tears everything down.
"""
from .base import (ISOLATION_ORDER, UNSANDBOXED_WARNING, ExecResult, IsolationTooWeak, Mount, Role, SandboxBackend,
                   SandboxError, ServiceHandle, TaskSandbox, isolation_at_least)
from .registry import get_backend

__all__ = ["ISOLATION_ORDER", "UNSANDBOXED_WARNING", "IsolationTooWeak", "isolation_at_least", "ExecResult", "Mount", "Role", "SandboxBackend", "SandboxError", "ServiceHandle", "TaskSandbox", "get_backend"]
