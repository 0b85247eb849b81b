"""The unprivileged OS users that sandboxed processes run as: per task, one for the service (and its
install) and another for the test runner, leased from small pools of system users."""
from __future__ import annotations

import fcntl
import pwd
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

SERVICE_POOL = "rg-s"
RUNNER_POOL = "rg-r"


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


POOL_SIZE = 16
LOCK_DIR = Path("/run/rg-sandbox-users")


class UserLease:
    """An exclusive lease on one user of a pool (`rg-s0`..`rg-s15` for services, `rg-r*` for runners).

    Each task gets its own service uid and runner uid, so per-user limits (RLIMIT_NPROC) and file
    ownership never span two tasks. The lease is a flock on a file under /run, released by `release()`
    or when the worker dies.
    """

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self._handle = None
        self.user: SandboxUser | None = None

    def acquire(self, *, timeout: float = 600.0) -> SandboxUser:
        """Lease a free user of the pool, waiting up to `timeout` seconds. Raises TimeoutError."""
        LOCK_DIR.mkdir(mode=0o700, exist_ok=True)
        deadline = time.monotonic() + timeout
        while True:
            for slot in range(POOL_SIZE):
                name = f"{self.prefix}{slot}"
                handle = open(LOCK_DIR / f"{name}.lock", "w")
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    handle.close()
                    continue
                self._handle, self.user = handle, ensure_user(name)
                return self.user
            if time.monotonic() > deadline:
                raise TimeoutError(f"no free sandbox user in pool {self.prefix}*")
            time.sleep(0.2)

    def release(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
