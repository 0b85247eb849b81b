"""The unprivileged OS users that sandboxed processes run as (one for services, one for test runners)."""
from __future__ import annotations

import pwd
import subprocess
from dataclasses import dataclass

SERVICE_USER = "rg-service"
RUNNER_USER = "rg-runner"


@dataclass(frozen=True)
class SandboxUser:
    """uid/gid pair of a sandbox user."""

    name: str
    uid: int
    gid: int


def ensure_user(name: str) -> SandboxUser:
    """Return the system user `name`, creating it (no home, no login shell) when missing.

    Raises PermissionError when it is missing and cannot be created (not root).
    """
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        proc = subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name],
            capture_output=True, text=True,
        )
        if proc.returncode != 0 and "already exists" not in proc.stderr:
            raise PermissionError(f"cannot create user {name}: {proc.stderr.strip()}")
        entry = pwd.getpwnam(name)
    return SandboxUser(name=name, uid=entry.pw_uid, gid=entry.pw_gid)
