"""Network namespaces with only loopback, managed with iproute2 (`ip netns`), and entering them.

`in_netns(name, fn)` runs fn in a fresh thread that has joined the namespace with setns(2):
network namespaces are per thread, so only that thread's sockets see the task's loopback. `name` is a
namespace made by `create` or an absolute path to a namespace file (`/proc/<pid>/ns/net`, as the docker
backend passes for its containers).
Requires CAP_SYS_ADMIN (root).
"""
from __future__ import annotations

import ctypes
import os
import subprocess
import threading
import time
from pathlib import Path
from typing import Callable, TypeVar

from .procfs import identity_alive, process_identity

T = TypeVar("T")
CLONE_NEWNET = 0x40000000
NETNS_DIR = Path("/run/netns")
#: One file per namespace this project made, holding the creating process's identity (procfs.process_identity).
OWNERS_DIR = Path("/run/rg-netns-owners")
PREFIX = "rg-"


class NetnsError(RuntimeError):
    """A namespace could not be created or entered."""


def create(name: str) -> None:
    """Create namespace `name` with loopback up, recording the calling process as its owner. Raises NetnsError."""
    for argv in (["ip", "netns", "add", name], ["ip", "-n", name, "link", "set", "lo", "up"]):
        proc = subprocess.run(argv, capture_output=True, text=True)
        if proc.returncode != 0:
            delete(name)
            raise NetnsError(f"{' '.join(argv)}: {proc.stderr.strip()}")
    try:
        OWNERS_DIR.mkdir(mode=0o700, exist_ok=True)
        (OWNERS_DIR / name).write_text(process_identity(os.getpid()) or "")
    except OSError:
        pass  # no record: `owner_gone` says False and the sweep falls back to the namespace's age


def delete(name: str) -> None:
    """Remove namespace `name` and its owner record if they exist (its processes must be gone first)."""
    subprocess.run(["ip", "netns", "delete", name], capture_output=True)
    (OWNERS_DIR / name).unlink(missing_ok=True)


def owner_gone(name: str) -> bool:
    """True when the process that created namespace `name` has exited; False while it runs or when there is no
    owner record (namespaces made before records existed, or by another tool)."""
    try:
        owner = (OWNERS_DIR / name).read_text().strip()
    except OSError:
        return False
    return bool(owner) and not identity_alive(owner)


def pids(name: str) -> list[int]:
    """Pids of the processes inside namespace `name` (`ip netns pids`); [] when it is gone."""
    out = subprocess.run(["ip", "netns", "pids", name], capture_output=True, text=True).stdout.split()
    return [int(p) for p in out if p.isdigit()]


def leftovers() -> list[str]:
    """Names of namespaces this project created (prefix `rg-`) that still exist."""
    if not NETNS_DIR.is_dir():
        return []
    return sorted(p.name for p in NETNS_DIR.iterdir() if p.name.startswith(PREFIX))


def age_seconds(name: str) -> float:
    """Seconds since namespace `name` was created (from its bind-mount file); 0 when unknown."""
    try:
        return max(0.0, time.time() - (NETNS_DIR / name).stat().st_mtime)
    except OSError:
        return 0.0


def namespace_path(name: str) -> Path:
    """The file of namespace `name`: itself when it is an absolute path, else /run/netns/<name>."""
    return Path(name) if str(name).startswith("/") else NETNS_DIR / name


def in_netns(name: str, fn: Callable[[], T]) -> T:
    """Call fn inside namespace `name` (a name or a namespace file's absolute path) on a throwaway thread;
    re-raises what fn raised."""
    box: dict[str, object] = {}

    def target() -> None:
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            fd = os.open(namespace_path(name), os.O_RDONLY)
            try:
                if libc.setns(fd, CLONE_NEWNET) != 0:
                    raise NetnsError(f"setns({name}): {os.strerror(ctypes.get_errno())}")
            finally:
                os.close(fd)
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed back to the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=target, name=f"netns-{Path(name).name}")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]  # type: ignore[return-value]
