"""Backends that run untrusted processes (DESIGN.md "Shape"). Django-free.

`get_backend(name, **options)` returns a `SandboxBackend`; every backend hands out one `TaskSandbox`
per evaluated task, which runs commands, starts the service and tears everything down.
"""
from .base import ExecResult, Mount, Role, SandboxBackend, SandboxError, ServiceHandle, TaskSandbox
from .registry import get_backend

__all__ = ["ExecResult", "Mount", "Role", "SandboxBackend", "SandboxError", "ServiceHandle", "TaskSandbox", "get_backend"]
