"""Choosing a backend by name (the `EVALUATION_BACKEND` setting)."""
from __future__ import annotations

from .base import SandboxBackend, SandboxError


def get_backend(name: str, **options) -> SandboxBackend:
    """Return the backend called `name` ("local"); raises SandboxError for an unknown name."""
    if name == "local":
        from .local import LocalBackend

        return LocalBackend(**options)
    raise SandboxError(f"unknown sandbox backend {name!r}: use 'local'")
