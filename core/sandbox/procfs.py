"""Reading /proc: children of a process, members of a PID namespace, processes carrying a marker, and process
identities that survive pid reuse (for owner records of task folders and network namespaces)."""
from __future__ import annotations

import os
import signal
from pathlib import Path

PROC = Path("/proc")


def _pids() -> list[int]:
    return [int(p.name) for p in PROC.iterdir() if p.name.isdigit()]


def process_identity(pid: int) -> str | None:
    """`<pid>:<start time in clock ticks>` (unique even when pids are reused), None when the process is gone."""
    try:
        start = (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None
    return f"{pid}:{start}"


def identity_alive(identity: str) -> bool:
    """True while the process recorded as `identity` (from `process_identity`) still runs; False for a
    malformed record."""
    pid = identity.split(":", 1)[0]
    return pid.isdigit() and process_identity(int(pid)) == identity


def children(pid: int) -> list[int]:
    """Direct children of `pid` (from /proc/<n>/stat)."""
    found = []
    for n in _pids():
        try:
            stat = (PROC / str(n) / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid:
            found.append(n)
    return found


def pid_namespace(pid: int) -> str | None:
    """The PID namespace identifier of `pid` (e.g. 'pid:[4026532]'), or None when it is gone."""
    try:
        return os.readlink(PROC / str(pid) / "ns" / "pid")
    except OSError:
        return None


def command_name(pid: int) -> str | None:
    """The process's command name (/proc/<pid>/comm), or None when it is gone."""
    try:
        return (PROC / str(pid) / "comm").read_text().strip()
    except OSError:
        return None


def namespace_members(ns: str) -> dict[int, int]:
    """{host pid: pid inside the namespace} for every process in PID namespace `ns`."""
    members = {}
    for n in _pids():
        if pid_namespace(n) != ns:
            continue
        try:
            for line in (PROC / str(n) / "status").read_text().splitlines():
                if line.startswith("NSpid:"):
                    members[n] = int(line.split()[-1])
        except OSError:
            continue
    return members


def with_marker(marker: str) -> list[int]:
    """Pids whose environment contains `marker` (a `KEY=value` string); only readable ones are seen."""
    needle = marker.encode()
    found = []
    for n in _pids():
        try:
            if needle in (PROC / str(n) / "environ").read_bytes().split(b"\0"):
                found.append(n)
        except OSError:
            continue
    return found


def owned_by(uid: int) -> list[int]:
    """Pids whose real uid is `uid`."""
    found = []
    for n in _pids():
        try:
            if (PROC / str(n)).stat().st_uid == uid:
                found.append(n)
        except OSError:
            continue
    return found


def kill_all(pids: list[int]) -> None:
    """SIGKILL every pid, ignoring the ones already gone."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
