"""The local backend: network namespace + bubblewrap + unprivileged users, with a process-level fallback.

Levels (recorded on every result as `evaluator.isolation`):
- `netns+bwrap`: root, bubblewrap and iproute2 available. Each task gets a network namespace with only
  loopback (service and test runner join it, so every task listens on its README port at once; the install
  phase reaches package hosts only through an allow-listing CONNECT proxy, see `egress`), and
  every command runs in bubblewrap (own PID namespace, read-only system, only its own folders writable,
  tmpfs /tmp and HOME, cleared environment) as `rg-service` or `rg-runner`, with rlimits.
- `netns+bwrap+cgroup`: the same plus a cgroup per task (v1 or v2) capping memory (swap included),
  processes and CPU (see `cgroups`); teardown kills every member of the cgroup.
- `process`: no root or no bubblewrap. Commands run as the worker's user in their own session; teardown
  kills by process group and environment marker. Tasks share the host's ports.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator, Mapping, Sequence, TypeVar

from . import cgroups, exec_only, netns, procfs, seccomp
from .cgroups import ResourceLimits, TaskCgroup
from .egress import EgressProxy
from .base import ExecResult, Mount, Role, SandboxBackend, SandboxError, ServiceHandle, TaskSandbox
from .process_io import kill_group, run_capped, spawn
from .users import RUNNER_POOL, SERVICE_POOL, SandboxUser, UserLease

T = TypeVar("T")

#: Files of /etc that tools need (DNS and TLS for installs, alternatives for java/mvn, users for uid names).
ETC_ALLOW = ("alternatives", "ssl", "ca-certificates", "ca-certificates.conf", "resolv.conf", "hosts",
             "nsswitch.conf", "passwd", "group", "localtime", "java-17-openjdk", "maven", "mime.types",
             "host.conf", "gai.conf")
#: rlimits applied with prlimit(1): file size 2 GiB, open files 4096, no core dumps, 1024 processes per user.
RLIMITS = ("--fsize=2147483648", "--nofile=4096", "--core=0", "--nproc=1024")


def detect_level() -> str:
    """The strongest isolation this machine offers the worker: `netns+bwrap` or `process`."""
    if os.geteuid() == 0 and shutil.which("bwrap") and shutil.which("ip") and shutil.which("setpriv"):
        return "netns+bwrap"
    return "process"


class LocalBackend(SandboxBackend):
    """Chooses `netns+bwrap` when available, else `process` (see module docstring)."""

    name = "local"

    def __init__(self, *, force_level: str | None = None, tmpfs_bytes: int = 256 * 1024 * 1024,
                 limits: ResourceLimits = ResourceLimits()) -> None:
        self.isolation = force_level or detect_level()
        self.tmpfs_bytes = tmpfs_bytes
        self.limits = limits
        if force_level is None and self.isolation == "netns+bwrap" and cgroups.version() is not None:
            self.isolation = "netns+bwrap+cgroup"

    def open_task(self, *, key: str, port: int, work_dir: Path) -> TaskSandbox:
        if self.isolation.startswith("netns+bwrap"):
            return BwrapTaskSandbox(backend=self, key=key, work_dir=work_dir)
        return ProcessTaskSandbox(key=key)

    def shares_host_ports(self) -> bool:
        return self.isolation == "process"

    def sweep(self, *, min_age: float = 1800.0) -> int:
        """Delete `rg-` network namespaces a crashed worker left: empty ones whose creating process has exited,
        and empty ones without an owner record older than `min_age` seconds.

        Sandboxed processes die with their worker (bwrap --die-with-parent), so a leftover namespace is
        empty; the owner record (or, without one, the age) spares namespaces of live workers that are still
        in their install phase, before any process has joined.
        """
        removed = 0
        for name in netns.leftovers():
            if netns.pids(name) or not (netns.owner_gone(name) or netns.age_seconds(name) >= min_age):
                continue
            netns.delete(name)
            TaskCgroup(name[len(netns.PREFIX):]).remove()
            removed += 1
        return removed


class _PidNamespaceService(ServiceHandle):
    """A service running under bwrap: its processes are the members of bwrap's PID namespace.

    Namespace pid 1 is bwrap's init and pid 2 the keeper (`bash start.sh; exec sleep infinity`),
    so the service is alive while start.sh runs or any other member exists.
    """

    def __init__(self, proc: subprocess.Popen, reader) -> None:
        self.proc = proc
        self.reader = reader
        self._ns: str | None = None

    def namespace(self) -> str | None:
        if self._ns is None:
            for child in procfs.children(self.proc.pid):
                self._ns = procfs.pid_namespace(child)
        return self._ns

    def alive(self) -> bool:
        if self.proc.poll() is not None:
            return False
        ns = self.namespace()
        if ns is None:
            return True  # still being set up
        members = procfs.namespace_members(ns)
        if any(inner > 2 for inner in members.values()):
            return True
        # Until start.sh exits the keeper (pid 2) is not yet `sleep`: the script is starting or running.
        keeper = [pid for pid, inner in members.items() if inner == 2]
        if not keeper:
            return True  # bwrap's init is up but has not forked the keeper yet
        return procfs.command_name(keeper[0]) not in ("sleep", None)

    def log(self) -> str:
        return self.reader.text()

    def stop(self) -> None:
        self.kill()

    def kill(self) -> None:
        ns = self.namespace()
        if ns is not None:
            procfs.kill_all([pid for pid, inner in procfs.namespace_members(ns).items() if inner == 1])
        kill_group(self.proc)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass


class BwrapTaskSandbox(TaskSandbox):
    """One task under `netns+bwrap` (see module docstring)."""

    isolation = "netns+bwrap"

    def __init__(self, *, backend: LocalBackend, key: str, work_dir: Path) -> None:
        self.backend = backend
        self.netns = f"{netns.PREFIX}{key}"
        self.work_dir = work_dir
        self.services: list[_PidNamespaceService] = []
        self.closed = False
        self.cgroup = TaskCgroup(key, backend.limits)
        self.leases = [UserLease(SERVICE_POOL), UserLease(RUNNER_POOL)]
        try:
            service, runner = (lease.acquire() for lease in self.leases)
        except (TimeoutError, PermissionError) as exc:
            self._release_users()
            raise SandboxError(str(exc)) from exc
        self.users: dict[Role, SandboxUser] = {Role.SERVICE: service, Role.INSTALL: service, Role.RUNNER: runner}
        try:
            netns.create(self.netns)
        except netns.NetnsError as exc:
            self._release_users()
            raise SandboxError(str(exc)) from exc
        if backend.isolation.endswith("+cgroup"):
            if not self.cgroup.create():
                netns.delete(self.netns)
                self._release_users()
                raise SandboxError("cannot create the task's cgroups")
            self.isolation = backend.isolation

    def _release_users(self) -> None:
        for lease in self.leases:
            lease.release()

    def owner(self, role: Role) -> tuple[int, int] | None:
        user = self.users[role]
        return user.uid, user.gid

    def _argv(self, argv: Sequence[str], *, role: Role, cwd: Path, env: Mapping[str, str],
              mounts: Sequence[Mount], seccomp_fd: int) -> list[str]:
        user = self.users[role]
        size = str(self.backend.tmpfs_bytes)
        cmd = [*self.cgroup.enter_prefix(), "ip", "netns", "exec", self.netns]
        cmd += ["bwrap", "--die-with-parent", "--new-session", "--seccomp", str(seccomp_fd),
                "--unshare-pid", "--unshare-ipc",
                "--unshare-uts", "--unshare-cgroup-try", "--hostname", "sandbox",
                "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
                "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/sbin", "/sbin",
                "--proc", "/proc", "--dev", "/dev",
                "--perms", "1777", "--size", size, "--tmpfs", "/tmp",
                "--perms", "0755", "--dir", "/home", "--perms", "0755", "--dir", "/etc",
                "--perms", "0777", "--size", size, "--tmpfs", "/home/sandbox"]
        for name in ETC_ALLOW:
            if os.path.exists(f"/etc/{name}"):
                cmd += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
        for source, target in exec_only.binds():  # no JVM of the sandbox is dumpable (core/sandbox/exec_only.py)
            cmd += ["--ro-bind", source, target]
        made: set[str] = {"/", "/tmp", "/home", "/home/sandbox", "/usr", "/etc"}
        for mount in mounts:
            for parent in reversed(Path(mount.path).parents):
                if str(parent) not in made:  # bwrap would create missing parents with mode 0700
                    cmd += ["--perms", "0755", "--dir", str(parent)]
                    made.add(str(parent))
            cmd += ["--bind" if mount.writable else "--ro-bind", str(mount.path), str(mount.path)]
            made.add(str(mount.path))
        cmd += ["--chdir", str(cwd), "--clearenv"]
        base_env = {"HOME": "/home/sandbox", "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
                    "TMPDIR": "/tmp", "USER": user.name}
        for k, v in {**base_env, **env}.items():
            cmd += ["--setenv", k, v]
        cmd += ["--", "prlimit", *RLIMITS, "--", "setpriv", f"--reuid={user.uid}", f"--regid={user.gid}",
                "--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
        return cmd + list(argv)

    def run(self, argv, *, role, cwd, env, timeout, mounts=()) -> ExecResult:
        with seccomp.program_fd() as fd:
            full = self._argv(argv, role=role, cwd=cwd, env=env, mounts=mounts, seccomp_fd=fd)
            return run_capped(full, cwd=None, env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")}, timeout=timeout,
                              pass_fds=(fd,))

    def start_service(self, argv, *, cwd, env, mounts=()) -> ServiceHandle:
        keeper = ["bash", "-c", 'bash "$@"; exec sleep infinity', "keeper", *argv]
        with seccomp.program_fd() as fd:
            full = self._argv(keeper, role=Role.SERVICE, cwd=cwd, env=env, mounts=mounts, seccomp_fd=fd)
            proc, reader = spawn(full, cwd=None, env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
                                 pass_fds=(fd,))
        handle = _PidNamespaceService(proc, reader)
        self.services.append(handle)
        return handle

    def in_network(self, fn: Callable[[], T]) -> T:
        return netns.in_netns(self.netns, fn)

    @contextmanager
    def egress(self, *, allowed_hosts: Iterable[str], avoid_port: int) -> Iterator[dict[str, str]]:
        port = 3128 if avoid_port != 3128 else 3129
        with EgressProxy(netns_name=self.netns, port=port, allowed_hosts=allowed_hosts) as proxy:
            yield {"HTTPS_PROXY": proxy.url, "HTTP_PROXY": proxy.url, "https_proxy": proxy.url,
                   "http_proxy": proxy.url, "NO_PROXY": "", "no_proxy": ""}

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        for service in self.services:
            service.kill()
        # Anything else still in the cgroup or the namespace (it should be nothing) is killed, then both go.
        self.cgroup.remove()
        procfs.kill_all(netns.pids(self.netns))
        for user in {u.uid for u in self.users.values()}:  # nothing may outlive the task under its uids
            procfs.kill_all(procfs.owned_by(user))
        netns.delete(self.netns)
        self._release_users()


class _MarkedService(ServiceHandle):
    """A service at `process` level: the processes whose environment carries the task's marker."""

    def __init__(self, proc: subprocess.Popen, reader, marker: str) -> None:
        self.proc, self.reader, self.marker = proc, reader, marker

    def alive(self) -> bool:
        return bool(procfs.with_marker(self.marker))

    def log(self) -> str:
        return self.reader.text()

    def stop(self) -> None:
        kill_group(self.proc)
        procfs.kill_all(procfs.with_marker(self.marker))


class ProcessTaskSandbox(TaskSandbox):
    """One task at `process` level: no namespace, same user; killed by group and environment marker."""

    isolation = "process"

    def __init__(self, *, key: str) -> None:
        self.marker = f"RG_SANDBOX_KEY={key}"
        self.procs: list[subprocess.Popen] = []
        self.closed = False

    def _env(self, env: Mapping[str, str]) -> dict[str, str]:
        key, value = self.marker.split("=", 1)
        base = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": os.environ.get("HOME", "/tmp")}
        return {**base, **env, key: value}

    def run(self, argv, *, role, cwd, env, timeout, mounts=()) -> ExecResult:
        return run_capped(argv, cwd=cwd, env=self._env(env), timeout=timeout,
                          on_timeout=lambda: procfs.kill_all(procfs.with_marker(self.marker)))

    def start_service(self, argv, *, cwd, env, mounts=()) -> ServiceHandle:
        proc, reader = spawn(["bash", *argv], cwd=cwd, env=self._env(env))
        self.procs.append(proc)
        return _MarkedService(proc, reader, self.marker)

    def in_network(self, fn: Callable[[], T]) -> T:
        return fn()

    def owner(self, role: Role) -> tuple[int, int] | None:
        return None

    @contextmanager
    def egress(self, *, allowed_hosts: Iterable[str], avoid_port: int) -> Iterator[dict[str, str]]:
        yield {}  # no namespace at this level: installs use the worker's network as it is

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        for proc in self.procs:
            kill_group(proc)
        for _ in range(3):
            pids = procfs.with_marker(self.marker)
            if not pids:
                break
            procfs.kill_all(pids)
            time.sleep(0.1)
        for proc in self.procs:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
