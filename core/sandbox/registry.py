"""Choosing a backend by name (the `EVALUATION_BACKEND` setting)."""
from __future__ import annotations

from .base import SandboxBackend, SandboxError


def get_backend(name: str, **options) -> SandboxBackend:
    """Return the backend called `name` ("local" or "docker"); raises SandboxError for an unknown name."""
    if name == "local":
        from .local import LocalBackend

        return LocalBackend(**options)
    if name == "docker":
        from .docker_backend import DockerBackend

        return DockerBackend(**options)
    raise SandboxError(f"unknown sandbox backend {name!r}: use 'local' or 'docker'")
