"""The docker backend: every process of a task runs in a container of a local dockerd (the `docker` SDK).

Per task (isolation `docker`):
- a *net* container (`rg-<key>-net`) with `--network none`: only loopback. It runs nothing but `sleep` and
  holds the task's network namespace, the way a Kubernetes pod's infra container does;
- one container per command (`run`: the install steps, the Maven build, the test runner) and one for
  the service (`start_service`), each joined to that network namespace (`network_mode=container:<net>`)
  and sharing nothing else: own PID, mount, IPC, UTS and cgroup namespaces and cgroup (the user namespace
  is the host's: no userns-remap, so bind-mounted files keep their uids). So the service and the test
  runner are two containers that meet on 127.0.0.1:<port> only, and two tasks can use one port at once;
- every container: read-only root filesystem, tmpfs /tmp and $HOME, the host's /usr (and the /etc files
  tools need) bind-mounted read-only, the task's folders bind-mounted as the engine asks, memory (swap
  included), pids and CPU limits, rlimits, all capabilities dropped, no-new-privileges, a non-root uid
  (service+install and runner get distinct uids per task: `rgd-s<N>` = 20000+2N, `rgd-r<N>` = 20001+2N),
  no log driver (output is read from the attach stream, capped at 64 KiB), and labels
  `repogenesis.backend=docker`, `repogenesis.task=<key>`, `repogenesis.role`, `repogenesis.worker`;
- the install phase has no route out either: the egress proxy (see `egress`) listens on 127.0.0.1 inside
  the net container's namespace (entered through /proc/<pid>/ns/net) and connects out from the worker,
  to allow-listed package hosts only. `in_network(fn)` enters that namespace the same way.

`close()` removes every container labelled with the task (force: SIGKILL), so nothing of the task
survives; `sweep()` at worker start removes containers whose worker process is gone. Images are built
locally by docker/build-images.sh (no registry): a missing image or an unreachable dockerd is a
SandboxError saying so.
"""
from __future__ import annotations

import fcntl
import logging
import os
import pwd
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping, Sequence, TypeVar

from . import cgroups, exec_only, netns, procfs
from .base import ExecResult, Mount, Role, SandboxBackend, SandboxError, ServiceHandle, TaskSandbox
from .cgroups import ResourceLimits
from .egress import EgressProxy
from .local import ETC_ALLOW
from .process_io import CappedReader

T = TypeVar("T")
log = logging.getLogger(__name__)

#: Must match TAG in docker/build-images.sh.
IMAGE_TAG = "1"
IMAGES = {"base": f"repogenesis/sandbox-base:{IMAGE_TAG}", "python": f"repogenesis/sandbox-python:{IMAGE_TAG}",
          "java": f"repogenesis/sandbox-java:{IMAGE_TAG}"}
BUILD_HINT = "build them with docker/build-images.sh"
DAEMON_HINT = "start it with `dockerd --iptables=false --ip-forward=false --bridge=none &` (as root)"

LABEL_BACKEND, LABEL_TASK = "repogenesis.backend", "repogenesis.task"
LABEL_ROLE, LABEL_WORKER = "repogenesis.role", "repogenesis.worker"

#: Host /etc entries mounted read-only (as the local backend's); the image has its own passwd, group and
#: nsswitch.conf, and docker writes hosts and resolv.conf itself.
HOST_ETC = tuple(n for n in ETC_ALLOW if n not in ("passwd", "group", "nsswitch.conf", "hosts", "resolv.conf"))
#: Commands that get the Java image (JAVA_HOME, MAVEN_HOME); everything else gets the Python image.
JAVA_COMMANDS = {"mvn", "mvnw", "java", "javac", "gradle", "gradlew"}
#: rlimits as the local backend's prlimit: file size 2 GiB, open files 4096, no core dumps, 1024 processes per uid.
ULIMITS = (("fsize", 2 * 1024 ** 3), ("nofile", 4096), ("core", 0), ("nproc", 1024))
#: Sandbox uids: slot N leases rgd-s<N> (20000+2N: service and install) and rgd-r<N> (20001+2N: runner).
UID_BASE, SLOTS = 20000, 64
SLOT_LOCK_DIR = Path("/run/rg-docker-slots")
HOME = "/home/sandbox"
#: Where each task's containers live in the v1 cgroup hierarchies (cgroupfs driver): <parent>/<task key>/<container>.
DOCKER_CGROUP_PARENT = "rg-docker"

#: PID 1 of the service container: runs start.sh, then reaps every orphan (daemons reparent to it) for
#: good. It renames itself `rg-idle` once start.sh has exited, so `alive()` can tell "start.sh still
#: running" from "only the keeper is left".
KEEPER = r'''
import os, subprocess, sys, time
script = subprocess.Popen(["bash", *sys.argv[1:]])
while True:
    try:
        pid, _ = os.wait()
    except ChildProcessError:
        time.sleep(0.2)
        continue
    if pid == script.pid:
        with open("/proc/self/comm", "w") as comm:
            comm.write("rg-idle")
'''


def _worker_id() -> str:
    """`<host>:<pid>:<start time>` of this process (the start time tells a reused pid apart)."""
    return f"{socket.gethostname()}:{os.getpid()}:{_start_time(os.getpid())}"


def _start_time(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return ""


def worker_alive(worker: str) -> bool | None:
    """True/False for a worker id of this host (is that process still running?); None for another host."""
    host, _, rest = worker.partition(":")
    pid, _, started = rest.partition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return None
    return _start_time(int(pid)) == started != ""


class _SlotLease:
    """An exclusive lease on one uid pair (a flock under /run, released by `release()` or the worker's death)."""

    def __init__(self) -> None:
        self._handle = None
        self.slot: int | None = None

    def acquire(self, *, timeout: float = 600.0) -> int:
        SLOT_LOCK_DIR.mkdir(mode=0o700, exist_ok=True)
        deadline = time.monotonic() + timeout
        while True:
            for slot in range(SLOTS):
                if _host_user_exists(UID_BASE + 2 * slot) or _host_user_exists(UID_BASE + 2 * slot + 1):
                    continue  # never share a uid with a user of the host
                handle = open(SLOT_LOCK_DIR / f"slot{slot}.lock", "w")
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    handle.close()
                    continue
                self._handle, self.slot = handle, slot
                return slot
            if time.monotonic() > deadline:
                raise TimeoutError("no free docker sandbox uid slot")
            time.sleep(0.2)

    def release(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def _host_user_exists(uid: int) -> bool:
    try:
        pwd.getpwuid(uid)
        return True
    except KeyError:
        return False


class _AttachStream:
    """The container's attach socket as a `read1` stream of its stdout+stderr payload (frame headers removed),
    for a CappedReader. Read errors end the stream."""

    def __init__(self, sock) -> None:
        from docker.utils.socket import frames_iter

        self.sock = sock
        self.frames = frames_iter(sock, False)

    def read1(self, size: int = -1) -> bytes:
        try:
            for _, data in self.frames:
                if data:
                    return data
        except Exception:  # noqa: BLE001 - the container went away mid-frame
            pass
        return b""

    def close(self) -> None:
        for closable in (self.sock, getattr(self.sock, "_response", None)):
            try:
                if closable is not None:
                    closable.close()
            except Exception:  # noqa: BLE001
                pass


class DockerBackend(SandboxBackend):
    """Tasks in containers of the dockerd at `base_url` (default: DOCKER_HOST or /var/run/docker.sock)."""

    name = "docker"
    isolation = "docker"

    def __init__(self, *, base_url: str | None = None, images: Mapping[str, str] | None = None,
                 limits: ResourceLimits = ResourceLimits(), tmpfs_bytes: int = 256 * 1024 * 1024,
                 timeout: float = 120.0) -> None:
        self.base_url = base_url
        self.images = {**IMAGES, **(images or {})}
        self.limits = limits
        self.tmpfs_bytes = tmpfs_bytes
        self.api_timeout = timeout
        self._client = None
        self._images_checked = False
        self._cgroup_driver: str | None = None
        self._lock = threading.Lock()
        self.worker = _worker_id()

    # --- dockerd -------------------------------------------------------------------------------
    @property
    def client(self):
        """The docker client (created on first use, so a forked worker makes its own). Raises SandboxError."""
        import docker

        with self._lock:
            if self._client is None or self.worker != _worker_id():
                self.worker = _worker_id()
                try:
                    if self.base_url:
                        client = docker.DockerClient(base_url=self.base_url, timeout=self.api_timeout)
                    else:
                        client = docker.from_env(timeout=self.api_timeout)
                    client.ping()
                except Exception as exc:  # noqa: BLE001 - DockerException, requests errors, bad URLs
                    raise SandboxError(f"dockerd is not reachable ({exc}); {DAEMON_HINT}") from exc
                self._client, self._images_checked = client, False
            return self._client

    def cgroup_driver(self) -> str:
        """dockerd's cgroup driver ("cgroupfs" or "systemd"), asked once; "" when dockerd does not say."""
        if self._cgroup_driver is None:
            try:
                self._cgroup_driver = str(self.client.info().get("CgroupDriver") or "")
            except Exception as exc:  # noqa: BLE001 - requests errors: dockerd went away
                raise SandboxError(f"dockerd is not reachable ({exc}); {DAEMON_HINT}") from exc
        return self._cgroup_driver

    def check_images(self) -> None:
        """Raise SandboxError naming the sandbox images that are missing from dockerd."""
        import docker

        client = self.client
        if self._images_checked:
            return
        missing = []
        for image in self.images.values():
            try:
                client.images.get(image)
            except docker.errors.ImageNotFound:
                missing.append(image)
            except docker.errors.APIError as exc:
                raise SandboxError(f"dockerd cannot list images: {exc}") from exc
        if missing:
            raise SandboxError(f"docker sandbox image(s) missing: {', '.join(missing)}; {BUILD_HINT}")
        self._images_checked = True

    def open_task(self, *, key: str, port: int, work_dir: Path) -> TaskSandbox:
        self.check_images()
        return DockerTaskSandbox(backend=self, key=key, work_dir=work_dir)

    def sweep(self, *, min_age: float = 1800.0) -> int:
        """Remove containers of this backend whose worker process is gone (on this host), or, for
        containers of another host's worker, older than `min_age` seconds. Returns how many.

        Safe at any time (live workers' containers are spared). When dockerd is unreachable it logs
        the error and returns 0: the worker still starts, and each task then fails with a SandboxError.
        """
        try:
            found = self.client.api.containers(all=True, filters={"label": f"{LABEL_BACKEND}=docker"})
        except Exception as exc:  # noqa: BLE001 - SandboxError (no dockerd), APIError, requests errors
            log.error("docker sandbox sweep skipped: %s", exc)
            return 0
        import docker

        removed = 0
        for info in found:
            labels = info.get("Labels") or {}
            alive = worker_alive(labels.get(LABEL_WORKER, ""))
            if alive or (alive is None and time.time() - info.get("Created", 0) < min_age):
                continue
            try:
                self.client.api.remove_container(info["Id"], force=True)
                removed += 1
            except docker.errors.NotFound:
                pass
            except docker.errors.APIError as exc:
                log.warning("sweep: cannot remove container %s: %s", info["Id"][:12], exc)
        return removed


class _ContainerService(ServiceHandle):
    """The service container: alive while start.sh runs or any process besides the keeper (PID 1) exists."""

    def __init__(self, container, reader: CappedReader, pid: int, failure: str | None = None) -> None:
        self.container, self.reader, self.pid, self.failure = container, reader, pid, failure
        self.ns = procfs.pid_namespace(pid) if pid else None

    def alive(self) -> bool:
        if self.ns is None or procfs.pid_namespace(self.pid) != self.ns:
            return False  # the keeper is gone (and its pid may belong to someone else by now)
        members = procfs.namespace_members(self.ns)
        if any(inner != 1 for inner in members.values()):
            return True
        return procfs.command_name(self.pid) not in ("rg-idle", None)

    def log(self) -> str:
        return self.reader.text() + (f"cannot start the service: {self.failure}\n" if self.failure else "")

    def stop(self) -> None:
        import docker

        try:
            self.container.kill()
        except docker.errors.APIError as exc:  # already gone; close() removes it either way
            log.info("service container %s: %s", self.container.name, exc)


class DockerTaskSandbox(TaskSandbox):
    """One task in containers (see module docstring)."""

    isolation = "docker"

    def __init__(self, *, backend: DockerBackend, key: str, work_dir: Path) -> None:
        self.backend, self.key, self.work_dir = backend, key, work_dir
        self.client = backend.client
        self.closed = False
        self.containers: list = []
        self.readers: list[CappedReader] = []
        self._netns_fd: int | None = None
        self._count = 0
        self.lease = _SlotLease()
        try:
            slot = self.lease.acquire()
        except (TimeoutError, OSError) as exc:
            raise SandboxError(str(exc)) from exc
        service, runner = UID_BASE + 2 * slot, UID_BASE + 2 * slot + 1
        self.users: dict[Role, tuple[str, int]] = {Role.SERVICE: (f"rgd-s{slot}", service),
                                                   Role.INSTALL: (f"rgd-s{slot}", service),
                                                   Role.RUNNER: (f"rgd-r{slot}", runner)}
        self.cgroup_parent = self._task_cgroup_parent()
        try:
            self.net = self._create("net", ["/usr/bin/sleep", "infinity"], image=backend.images["base"],
                                    role=Role.SERVICE, cwd=Path(HOME), env={}, mounts=(), network_mode="none",
                                    memory=64 * 1024 ** 2, pids=8)
            failed = self._start(self.net)
            if failed is not None:
                raise SandboxError(f"the task's net container does not start: {failed}")
            self.net.reload()
            pid = self.net.attrs["State"]["Pid"]
            # Holding the namespace by an open descriptor keeps it (and only it) alive for the task's length.
            try:
                self._netns_fd = os.open(f"/proc/{pid}/ns/net", os.O_RDONLY)
            except OSError as exc:
                raise SandboxError(f"cannot open the net container's namespace (pid {pid}): {exc}") from exc
        except BaseException:
            self.close()
            raise
        self.netns_path = f"/proc/{os.getpid()}/fd/{self._netns_fd}"

    # --- the task's cgroup parent (cgroup v1) ----------------------------------------------------
    def _task_cgroup_parent(self) -> str | None:
        """On cgroup v1 with dockerd's cgroupfs driver, the task's own parent cgroup ("/rg-docker/<key>"), its
        memory folder made with the TCP buffer cap (cgroups.limit_tcp_memory_v1) before any container of the task
        exists: the cap is hierarchical, so no container has a moment after its start with its sockets uncapped,
        and all of the task's containers share the one cap. None elsewhere (v2 charges socket buffers to the
        memory limit; the systemd driver names parents as slices)."""
        if cgroups.version() != 1 or self.backend.cgroup_driver() != "cgroupfs":
            return None
        folder = cgroups.ROOT / "memory" / DOCKER_CGROUP_PARENT / self.key
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            log.warning("cannot make the task's memory cgroup %s: %s", folder, exc)
            return None
        if not cgroups.limit_tcp_memory_v1(folder, self.backend.limits.tcp_memory_bytes):
            folder.rmdir()
            return None
        return f"/{DOCKER_CGROUP_PARENT}/{self.key}"

    def _remove_cgroup_parent(self) -> None:
        """Delete the task's parent cgroup in every v1 hierarchy dockerd made it in (empty once its containers
        are gone)."""
        if not self.cgroup_parent:
            return
        for controller in cgroups.ROOT.iterdir():
            folder = controller / self.cgroup_parent.lstrip("/")
            try:
                if folder.is_dir():
                    folder.rmdir()
            except OSError as exc:
                log.warning("cannot remove the task's cgroup %s: %s", folder, exc)

    # --- containers ----------------------------------------------------------------------------
    def owner(self, role: Role) -> tuple[int, int] | None:
        uid = self.users[role][1]
        return uid, uid

    def _image(self, argv: Sequence[str], cwd: Path) -> str:
        if Path(argv[0]).name in JAVA_COMMANDS or (cwd / "pom.xml").is_file():
            return self.backend.images["java"]
        return self.backend.images["python"]

    def _mounts(self, mounts: Sequence[Mount]) -> list:
        from docker.types import Mount as DockerMount

        wanted: dict[str, bool] = {"/usr": False}
        for name in HOST_ETC:
            if os.path.exists(f"/etc/{name}"):
                wanted[f"/etc/{name}"] = False
        for mount in mounts:
            path = os.path.abspath(mount.path)
            wanted[path] = wanted.get(path, False) or mount.writable
        return [*(DockerMount(target=path, source=path, type="bind", read_only=not writable)
                  for path, writable in wanted.items()),
                *(DockerMount(target=target, source=source, type="bind", read_only=True)  # core/sandbox/exec_only.py
                  for source, target in exec_only.binds())]

    def _create(self, role_label: str, argv: Sequence[str], *, image: str, role: Role, cwd: Path,
                env: Mapping[str, str], mounts: Sequence[Mount], network_mode: str | None = None,
                memory: int | None = None, pids: int | None = None):
        """Create (not start) one container of the task. Raises SandboxError."""
        import docker
        from docker.types import LogConfig, Ulimit

        limits = self.backend.limits
        memory = memory or limits.memory_bytes
        name, uid = self.users[role]
        self._count += 1
        size = self.backend.tmpfs_bytes
        full_env = {"HOME": HOME, "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TMPDIR": "/tmp",
                    "USER": name, **{k: str(v) for k, v in env.items()}}
        options = dict(
            image=image, command=list(argv), name=f"rg-{self.key}-{role_label}",
            user=f"{uid}:{uid}", working_dir=os.path.abspath(cwd), environment=full_env,
            network_mode=network_mode or f"container:{self.net.id}",
            read_only=True,
            tmpfs={"/tmp": f"rw,exec,nosuid,nodev,size={size},mode=1777",
                   HOME: f"rw,exec,nosuid,nodev,size={size},mode=0777"},
            mounts=self._mounts(mounts),
            mem_limit=memory, memswap_limit=memory, pids_limit=pids or limits.pids,
            nano_cpus=int(limits.cpus * 1e9),
            ulimits=[Ulimit(name=n, soft=v, hard=v) for n, v in ULIMITS],
            cap_drop=["ALL"], security_opt=["no-new-privileges"], ipc_mode="private", cgroupns="private",
            log_config=LogConfig(type="none"), stdin_open=False, tty=False, detach=True,
            labels={LABEL_BACKEND: "docker", LABEL_TASK: self.key, LABEL_ROLE: role_label,
                    LABEL_WORKER: self.backend.worker},
        )
        if self.cgroup_parent:
            options["cgroup_parent"] = self.cgroup_parent
        if network_mode == "none":
            options["hostname"] = "sandbox"  # joined containers take the net container's
        if role_label != "net":
            options["name"] += f"-{self._count}"
        try:
            container = self.client.containers.create(**options)
        except docker.errors.ImageNotFound as exc:
            raise SandboxError(f"docker sandbox image {image} is missing; {BUILD_HINT}") from exc
        except (docker.errors.APIError, docker.errors.DockerException) as exc:
            raise SandboxError(f"dockerd cannot create the {role_label} container: {exc}") from exc
        except Exception as exc:  # noqa: BLE001 - requests errors: dockerd went away
            raise SandboxError(f"dockerd is not reachable ({exc}); {DAEMON_HINT}") from exc
        self.containers.append(container)
        return container

    def _attach(self, container) -> CappedReader:
        """Read the container's stdout+stderr from before it starts (no log driver keeps a copy)."""
        try:
            sock = self.client.api.attach_socket(container.id, params={"stdout": 1, "stderr": 1, "stream": 1})
        except Exception as exc:  # noqa: BLE001
            raise SandboxError(f"dockerd cannot attach to {container.name}: {exc}") from exc
        reader = CappedReader(_AttachStream(sock))
        self.readers.append(reader)
        return reader

    def _start(self, container) -> str | None:
        """Start a created container; returns the reason when its command cannot be executed (a
        submission's fault, like a missing binary), raises SandboxError for other failures."""
        import docker

        try:
            container.start()
            self._limit_tcp_memory(container)
            return None
        except docker.errors.APIError as exc:
            text = str(exc.explanation or exc)
            if any(s in text for s in ("executable file not found", "no such file or directory",
                                       "permission denied", "not a directory")) and "mount" not in text:
                return text.rsplit("unable to start container process: ", 1)[-1]
            raise SandboxError(f"dockerd cannot start {container.name}: {exc}") from exc
        except Exception as exc:  # noqa: BLE001
            raise SandboxError(f"dockerd is not reachable ({exc}); {DAEMON_HINT}") from exc

    def _limit_tcp_memory(self, container) -> None:
        """On cgroup v1, cap the container's TCP socket buffers (cgroups.limit_tcp_memory_v1), which dockerd's
        memory limit does not count there; on v2 they are already charged to it. Written right after the start:
        the container's memory cgroup exists only from then on."""
        if cgroups.version() != 1:
            return
        parent = (container.attrs.get("HostConfig") or {}).get("CgroupParent") or "docker"
        memory = cgroups.ROOT / "memory"
        for folder in (memory / parent.strip("/") / container.id, memory / "system.slice" / f"docker-{container.id}.scope"):
            if cgroups.limit_tcp_memory_v1(folder, self.backend.limits.tcp_memory_bytes):
                return
        log.warning("cannot cap the TCP buffers of %s: no v1 memory cgroup found", container.name)

    def _remove(self, container) -> bool:
        import docker

        try:
            container.remove(force=True)
        except docker.errors.NotFound:
            pass
        except Exception as exc:  # noqa: BLE001 - a removal in progress, dockerd gone
            if "already in progress" not in str(exc):
                log.warning("cannot remove container %s: %s", container.name, exc)
                return False
        if container in self.containers:
            self.containers.remove(container)
        return True

    # --- the interface -------------------------------------------------------------------------
    def run(self, argv, *, role, cwd, env, timeout, mounts=()) -> ExecResult:
        started = time.monotonic()
        container = self._create(role.value, argv, image=self._image(argv, Path(cwd)), role=role, cwd=Path(cwd),
                                 env=env, mounts=mounts)
        try:
            reader = self._attach(container)
            failed = self._start(container)
            if failed is not None:
                return ExecResult(returncode=127, output=f"cannot run {argv[0]}: {failed}\n", timed_out=False,
                                  duration=round(time.monotonic() - started, 3))
            timed_out, code = False, None
            limit = started + timeout
            try:
                code = container.wait(timeout=max(0.1, limit - time.monotonic()))["StatusCode"]
            except Exception as exc:  # noqa: BLE001 - requests' ReadTimeout/ConnectionError at the time limit
                if time.monotonic() < limit - 0.5:
                    raise SandboxError(f"dockerd stopped answering while {argv[0]} ran: {exc}") from exc
                timed_out = True
                try:
                    container.kill()
                except Exception:  # noqa: BLE001 - it exited meanwhile
                    pass
            reader.join()
            return ExecResult(returncode=None if timed_out else code, output=reader.text(), timed_out=timed_out,
                              duration=round(time.monotonic() - started, 3))
        finally:
            self._remove(container)

    def start_service(self, argv, *, cwd, env, mounts=()) -> ServiceHandle:
        keeper = ["/usr/bin/python3", "-c", KEEPER, *argv]
        container = self._create("service", keeper, image=self._image(argv, Path(cwd)), role=Role.SERVICE,
                                 cwd=Path(cwd), env=env, mounts=mounts)
        reader = self._attach(container)
        failed = self._start(container)
        pid = 0
        if failed is None:
            try:
                container.reload()
                pid = container.attrs["State"]["Pid"]
            except Exception as exc:  # noqa: BLE001
                raise SandboxError(f"dockerd cannot inspect {container.name}: {exc}") from exc
        return _ContainerService(container, reader, pid, failed)

    def in_network(self, fn: Callable[[], T]) -> T:
        if self._netns_fd is None:
            raise SandboxError("the task's sandbox is closed")
        return netns.in_netns(self.netns_path, fn)

    @contextmanager
    def egress(self, *, allowed_hosts: Iterable[str], avoid_port: int) -> Iterator[dict[str, str]]:
        port = 3128 if avoid_port != 3128 else 3129
        with EgressProxy(netns_name=self.netns_path, port=port, allowed_hosts=allowed_hosts) as proxy:
            yield {"HTTPS_PROXY": proxy.url, "HTTP_PROXY": proxy.url, "https_proxy": proxy.url,
                   "http_proxy": proxy.url, "NO_PROXY": "", "no_proxy": ""}

    def close(self) -> None:
        """Remove every container of the task (SIGKILL). Raises SandboxError when some survive; the uid
        slot then stays leased (until the worker exits) so no later task shares a uid with them."""
        if self.closed:
            return
        self.closed = True
        leftovers = list(self.containers)
        try:  # also any container of this task that was created but not recorded (an interrupted create)
            known = {c.id for c in leftovers}
            mine = {"label": [f"{LABEL_TASK}={self.key}", f"{LABEL_WORKER}={self.backend.worker}"]}
            for info in self.client.api.containers(all=True, filters=mine):
                if info["Id"] not in known:
                    leftovers.append(self.client.containers.get(info["Id"]))
        except Exception as exc:  # noqa: BLE001 - APIError, requests errors: dockerd went away
            log.warning("cannot list the containers of task %s: %s", self.key, exc)
        # Everything joined to the net container first (in parallel: each removal waits for a SIGKILL), then it.
        net = [c for c in leftovers if c.labels.get(LABEL_ROLE) == "net"]
        others = [c for c in leftovers if c not in net]
        failed = []
        for group in (others, net):
            with ThreadPoolExecutor(max_workers=max(1, min(8, len(group)))) as pool:
                failed += [c.name for c, ok in zip(group, pool.map(self._remove, group)) if not ok]
        for reader in self.readers:
            reader.join(timeout=2)
        if self._netns_fd is not None:
            os.close(self._netns_fd)
            self._netns_fd = None
        if failed:
            raise SandboxError(f"cannot remove containers {', '.join(failed)}; the next sweep() will")
        self._remove_cgroup_parent()
        self.lease.release()
