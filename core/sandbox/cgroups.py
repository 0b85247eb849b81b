"""Per-task control groups: memory (with swap), process count and CPU, on cgroup v1 or v2.

`TaskCgroup(key, limits).create()` makes `rg/<key>` under each controller (v1) or under the unified
hierarchy (v2) and writes the limits; `enter_prefix()` is an argv prefix that moves the command into
the groups before it execs; `kill()` kills every member; `remove()` deletes the groups.
"""
from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
PARENT = "rg"


@dataclass(frozen=True)
class ResourceLimits:
    """Memory in bytes (swap included: memory + swap never exceeds it), processes, CPU in cores, and the socket
    buffers of the task's TCP connections in bytes: charged to `memory_bytes` on cgroup v2, a limit of its own on
    v1 (`memory.kmem.tcp.limit_in_bytes`), where the kernel does not count them as memory at all otherwise."""

    memory_bytes: int = 2 * 1024 ** 3
    pids: int = 512
    cpus: float = 1.0
    tcp_memory_bytes: int = 256 * 1024 ** 2


def version() -> int | None:
    """2 for the unified hierarchy, 1 for per-controller v1 mounts, None when neither is writable."""
    if (ROOT / "cgroup.controllers").exists():
        return 2 if os.access(ROOT, os.W_OK) else None
    if all((ROOT / c).is_dir() for c in ("memory", "pids", "cpu")) and os.access(ROOT / "memory", os.W_OK):
        return 1
    return None


def limit_tcp_memory_v1(memory_dir: Path, limit_bytes: int) -> bool:
    """Cap the TCP socket buffers of a v1 memory cgroup (`memory.kmem.tcp.limit_in_bytes`): without it, unread
    connections hold buffer memory that no limit counts (issue 15, escape 6). False when the file is absent."""
    return _write(memory_dir / "memory.kmem.tcp.limit_in_bytes", str(limit_bytes))


def _write(path: Path, value: str) -> bool:
    try:
        path.write_text(value)
        return True
    except OSError:
        return False


class TaskCgroup:
    """The cgroups of one task. All methods are safe to call when cgroups are unavailable (no-ops)."""

    def __init__(self, key: str, limits: ResourceLimits = ResourceLimits()) -> None:
        self.key, self.limits, self.version = key, limits, version()

    @property
    def dirs(self) -> list[Path]:
        if self.version == 2:
            return [ROOT / PARENT / self.key]
        if self.version == 1:
            return [ROOT / c / PARENT / self.key for c in ("memory", "pids", "cpu")]
        return []

    def create(self) -> bool:
        """Create the groups and write the limits; False when cgroups are not usable here."""
        if self.version is None:
            return False
        try:
            if self.version == 2:
                _write(ROOT / "cgroup.subtree_control", "+memory +pids +cpu")
                (ROOT / PARENT).mkdir(exist_ok=True)
                _write(ROOT / PARENT / "cgroup.subtree_control", "+memory +pids +cpu")
            for d in self.dirs:
                d.mkdir(parents=True, exist_ok=True)
        except OSError:
            self.version = None
            return False
        self._limits()
        return True

    def _limits(self) -> None:
        mem, pids = str(self.limits.memory_bytes), str(self.limits.pids)
        period = 100_000
        quota = str(int(self.limits.cpus * period))
        if self.version == 2:
            d = self.dirs[0]
            _write(d / "memory.max", mem)
            _write(d / "memory.swap.max", "0")
            _write(d / "pids.max", pids)
            _write(d / "cpu.max", f"{quota} {period}")
            return
        memory, pid_dir, cpu = self.dirs
        _write(memory / "memory.limit_in_bytes", mem)
        _write(memory / "memory.memsw.limit_in_bytes", mem)  # absent without swap accounting: then no swap limit
        limit_tcp_memory_v1(memory, self.limits.tcp_memory_bytes)
        _write(pid_dir / "pids.max", pids)
        _write(cpu / "cpu.cfs_period_us", str(period))
        _write(cpu / "cpu.cfs_quota_us", quota)

    def enter_prefix(self) -> list[str]:
        """argv prefix that joins the groups, then execs the rest of the argv ([] without cgroups)."""
        if not self.dirs:
            return []
        files = " ".join(f"'{d / 'cgroup.procs'}'" for d in self.dirs)
        return ["sh", "-c", f'for f in {files}; do echo $$ > "$f"; done; exec "$@"', "rg-cgroup-enter"]

    def members(self) -> list[int]:
        pids: set[int] = set()
        for d in self.dirs:
            try:
                pids.update(int(p) for p in (d / "cgroup.procs").read_text().split())
            except OSError:
                continue
        return sorted(pids)

    def kill(self, *, rounds: int = 20) -> None:
        """SIGKILL every member until the groups are empty (v2: cgroup.kill)."""
        if self.version == 2:
            _write(self.dirs[0] / "cgroup.kill", "1")
        for _ in range(rounds):
            pids = self.members()
            if not pids:
                return
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            time.sleep(0.05)

    def remove(self) -> None:
        """Kill what is left and delete the groups."""
        self.kill()
        for d in self.dirs:
            for _ in range(20):
                try:
                    d.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.05)

    def oom_killed(self) -> bool:
        """True when the memory limit killed a process of the task."""
        if not self.dirs:
            return False
        d = self.dirs[0]
        try:
            if self.version == 2:
                events = (d / "memory.events").read_text()
                return any(line.startswith("oom_kill ") and int(line.split()[1]) > 0 for line in events.splitlines())
            return int((d / "memory.failcnt").read_text()) > 0 and "oom_kill 1" in (d / "memory.oom_control").read_text()
        except (OSError, ValueError):
            return False


def leftovers() -> list[str]:
    """Keys of task groups that still exist (a crashed worker's)."""
    v = version()
    base = ROOT / PARENT if v == 2 else ROOT / "memory" / PARENT
    return sorted(p.name for p in base.iterdir() if p.is_dir()) if v and base.is_dir() else []
