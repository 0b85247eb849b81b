"""The hostile corpus: repositories that attack the evaluator, each with the outcome it must get.

Every folder of tests/hostile/corpus is a small repository for the demo task TodoList (Flask, port 8080) plus its
`attack.json` ({"description", "expected_outcome", "min_passed", "max_passed", "probe"}, and optionally "heavy": run
alone, "also_contained_as": other outcomes that are the same containment reached by a race, "symlinks"/"sdists":
made in the copy, "max_processes", "max_ac_implemented", "must_record", "log_limits", "log_must_not_contain",
"victim", "check_proxy_closed", "start_limit": the start phase's seconds for this attack; see `Batch.materialize` and `AttackRun.check`). Most
attacks are the reference app (tests/hostile/kit/hostile_kit.py, copied next to each repository's code) with a
hostile start.sh, a hostile background process or a hostile route, so the service still comes up and the hidden
suite still runs.

Each repository is evaluated with `evaluate_task` on the local backend (netns + bubblewrap + cgroups) and on the
docker backend, with the TodoList spec of the demo split, small phase limits and a copy of the hidden tests with a
canary planted in every file. An attack is *contained* when all of these hold (`check` lists what did not):
- the outcome and the passed count are the expected ones (so the JUnit tamper attacks do not raise the count);
- no process of the task's sandbox users survives teardown, and no `rg-<key>` namespace, cgroup or labelled
  container is left;
- the host is unchanged: the canary folder and file, the canary in the work root and in MEDIA_ROOT, the files the
  attacks try to create (/tmp/rg-hostile-<attack>-<backend>-pwned and others), the Redis key the attacks try to
  SET on the host's Redis, and two canary processes (root and nobody) the attacks try to kill;
- nothing the submitter sees (logs, detail) and nothing the attack recorded contains a planted secret: the hidden
  tests' canary or source, the canary processes' environment, the host canary files, the Django settings, the
  SECRET_KEY, the database file;
- the attack recorded no `reached` (a forbidden destination answered: the internet, the host's Redis or
  PostgreSQL, the metadata address, dockerd), `breached` or `escalated` evidence, and it did record the
  `must_record` evidence that proves it ran at all.

The first test of a backend evaluates every selected attack of that backend at once (three at a time, the heavy
ones one by one); each test then checks its own attack. A failure is a product bug: keep the test failing.
HOSTILE_REPORT=/tmp/hostile makes the batch write everything it saw (logs, evidence) to /tmp/hostile.<backend>.json.
"""
from __future__ import annotations

import dataclasses
import json
import os
import shutil
import signal
import socket
import subprocess
import tarfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings

from core.engine.runner import evaluate_task
from core.engine.spec import TaskEvaluation
from evaluation.engine_setup import task_spec, toolchain
from core.grading.taxonomy import Outcome
from core.sandbox import Role, SandboxBackend, TaskSandbox, get_backend
from core.sandbox.cgroups import ResourceLimits, TaskCgroup
from catalog.services import task_hidden_dir

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
KIT = HERE / "kit" / "hostile_kit.py"
ATTACKS = sorted(p.name for p in CORPUS.iterdir() if (p / "attack.json").is_file())
#: Small phase limits (seconds) over the task's own; everything else (e.g. the disk cap) stays the task's.
SMALL_LIMITS = {"install": 120, "start": 10, "test_case": 10, "test_suite": 60}
#: Evidence kinds that mean the attack got somewhere it must not.
SEVERE = ("reached", "breached", "escalated")
#: A task may not write more than this into its work folder when the engine sets no cap of its own (the sandbox's
#: per-file limit, RLIMIT_FSIZE, is 2 GiB too).
DISK_BUDGET = 2 * 1024 ** 3
LIGHT_WORKERS = 2  # plus one worker for the heavy attacks: three tasks at once
CLK_TCK = os.sysconf("SC_CLK_TCK")
NOBODY = 65534


def _attack_meta(name: str) -> dict:
    return json.loads((CORPUS / name / "attack.json").read_text())


# --- processes ---------------------------------------------------------------------------------------
def _ticks_now() -> float:
    return float(Path("/proc/uptime").read_text().split()[0]) * CLK_TCK


def processes_of(uids: set[int], *, started_by: float | None = None) -> dict[int, str]:
    """{pid: description} of live (non-zombie) processes with any of `uids` as real/effective/saved uid,
    started no later than `started_by` (clock ticks since boot) when given."""
    found = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            status = Path(entry.path, "status").read_text()
            stat = Path(entry.path, "stat").read_text()
            cmdline = Path(entry.path, "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        ids = {int(x) for x in fields.get("Uid", "").split()}
        if not ids & uids or fields.get("State", "").split()[:1] == ["Z"]:
            continue
        start = int(stat.rsplit(")", 1)[1].split()[19])
        if started_by is not None and start > started_by:
            continue
        found[int(entry.name)] = f"pid {entry.name} uid {fields['Uid'].split()[0]}: {cmdline[:120]}"
    return found


def count_processes_of(uids: set[int]) -> int:
    count = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if os.stat(entry.path).st_uid in uids:
                    count += 1
            except OSError:
                pass
    return count


# --- a backend that watches its sandboxes ------------------------------------------------------------
class WatchedSandbox(TaskSandbox):
    """Delegates to the real sandbox; on close, reads the attack's evidence file, then checks what survived."""

    def __init__(self, inner: TaskSandbox, *, backend: "WatchedBackend", key: str, work_dir: Path) -> None:
        self.inner, self.backend, self.key, self.work_dir = inner, backend, key, work_dir
        self.isolation = inner.isolation
        self.uids = {owner[0] for owner in (inner.owner(role) for role in Role) if owner}
        self.closed = False
        self.evidence: list[dict] = []
        self.survivors: list[str] = []
        self.leftovers: list[str] = []
        self.peak_processes = 0
        self.proxy_left_open: list[int] = []
        self._stop = threading.Event()
        if backend.monitor:
            threading.Thread(target=self._monitor, daemon=True).start()

    def _monitor(self) -> None:
        while not self._stop.is_set():
            self.peak_processes = max(self.peak_processes, count_processes_of(self.uids))
            self._stop.wait(0.2)

    def run(self, argv, *, role, cwd, env, timeout, mounts=()):
        return self.inner.run(argv, role=role, cwd=cwd, env=env, timeout=timeout, mounts=mounts)

    def start_service(self, argv, *, cwd, env, mounts=()):
        return self.inner.start_service(argv, cwd=cwd, env=env, mounts=mounts)

    def owner(self, role):
        return self.inner.owner(role)

    def in_network(self, fn):
        return self.inner.in_network(fn)

    @contextmanager
    def egress(self, *, allowed_hosts, avoid_port):
        check = self.backend.check_proxy_closed
        with self.inner.egress(allowed_hosts=allowed_hosts, avoid_port=avoid_port) as env:
            port = int(env.get("HTTPS_PROXY", "").rpartition(":")[2] or 0)
            yield env
            if check and port:  # one last client, as an installer's own: the proxy's accept loop then starts a
                self.inner.in_network(lambda: _accepts("127.0.0.1", port))  # fresh wait, and is in it when the
                time.sleep(0.2)  # proxy is closed, whatever the timing of the install was
        if check and port and self.inner.in_network(lambda: _listening(port)):
            self.proxy_left_open.append(port)  # the install is over: nothing may listen on the proxy's port now

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self._stop.set()
        try:
            self.inner.close()
        finally:
            # The task's uids are leased to it until the end of inner.close(); a process of theirs that started
            # after this moment belongs to the next task that leased them (possibly another session's).
            closed_at = _ticks_now()
            self.evidence = read_evidence(self.work_dir / "repo" / ".hostile-evidence.jsonl")
            survivors = processes_of(self.uids, started_by=closed_at)
            deadline = time.monotonic() + 5
            while survivors and time.monotonic() < deadline:  # a SIGKILL is delivered, not waited for
                time.sleep(0.2)
                survivors = processes_of(self.uids, started_by=closed_at)
            self.survivors = sorted(survivors.values())
            for pid in survivors:  # recorded as a failure; do not leave them running on the machine
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            self.leftovers = self.backend.leftovers(self.key)


class WatchedBackend(SandboxBackend):
    """The real backend, with every sandbox it opens wrapped in a WatchedSandbox."""

    def __init__(self, inner: SandboxBackend, *, monitor: bool = False, check_proxy_closed: bool = False) -> None:
        self.inner, self.monitor, self.check_proxy_closed = inner, monitor, check_proxy_closed
        self.name, self.isolation = inner.name, inner.isolation
        self.opened: list[WatchedSandbox] = []

    def open_task(self, *, key: str, port: int, work_dir: Path) -> TaskSandbox:
        box = WatchedSandbox(self.inner.open_task(key=key, port=port, work_dir=work_dir), backend=self, key=key,
                             work_dir=work_dir)
        self.opened.append(box)
        return box

    def shares_host_ports(self) -> bool:
        return self.inner.shares_host_ports()

    def leftovers(self, key: str) -> list[str]:
        """What of task `key` is still there: its network namespace and cgroups, or its containers."""
        if self.inner.name == "docker":
            from core.sandbox.docker_backend import LABEL_TASK

            found = self.inner.client.api.containers(all=True, filters={"label": f"{LABEL_TASK}={key}"})
            return [f"container {c['Names']}" for c in found]
        left = [f"netns rg-{key}"] if Path("/run/netns", f"rg-{key}").exists() else []
        return left + [f"cgroup {d}" for d in TaskCgroup(key).dirs if d.exists()]


def _accepts(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), timeout=1).close()
        return True
    except OSError:
        return False


def _listening(port: int) -> bool:
    """True when a TCP socket listens on `port` in the calling thread's network namespace (read from the kernel's
    table, without connecting: a connection would wake the listener up)."""
    for table in ("tcp", "tcp6"):
        try:
            lines = Path(f"/proc/thread-self/net/{table}").read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "0A":  # 0A: LISTEN
                return True
    return False


def read_evidence(path: Path) -> list[dict]:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return []
    with os.fdopen(fd, "rb") as handle:
        text = handle.read(4 * 1024 * 1024).decode("utf-8", "replace")
    entries = []
    for line in text.splitlines():
        try:
            entries.append(json.loads(line))
        except ValueError:
            entries.append({"kind": "note", "what": "unparsable evidence line", "detail": line[:400]})
    return entries


# --- the host: canaries ------------------------------------------------------------------------------
def host_ips() -> list[str]:
    proc = subprocess.run(["ip", "-o", "addr", "show", "scope", "global"], capture_output=True, text=True)
    return [line.split()[3].split("/")[0] for line in proc.stdout.splitlines() if len(line.split()) > 3]


def redis_command(*args: str) -> str | None:
    """One command to the host's Redis at 127.0.0.1:6379; None when no Redis listens there."""
    payload = f"*{len(args)}\r\n" + "".join(f"${len(a)}\r\n{a}\r\n" for a in args)
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=3) as sock:
            sock.sendall(payload.encode())
            return sock.recv(100).decode(errors="replace").strip()
    except OSError:
        return None


def _fresh_file(path: Path, text: str, mode: int) -> None:
    path.unlink(missing_ok=True)
    path.write_text(text)
    path.chmod(mode)


@dataclass
class Canaries:
    """What one attack's run plants on the host, and checks afterwards."""

    folder: Path
    file: Path
    file_text: str
    work_root: Path
    work_text: str
    media_file: Path
    media_text: str
    forbidden: list[Path]
    redis_key: str
    processes: list[subprocess.Popen] = field(default_factory=list)

    def changes(self) -> list[str]:
        found = []
        listing = sorted(os.listdir(self.folder)) if self.folder.is_dir() else None
        if listing != ["canary.txt"]:
            found.append(f"canary folder {self.folder} now holds {listing}")
        for path, text in ((self.file, self.file_text), (self.work_root / "canary.txt", self.work_text),
                           (self.media_file, self.media_text)):
            try:
                now = path.read_text()
            except OSError as exc:
                now = f"<{exc}>"
            if now != text:
                found.append(f"canary file {path} changed: {now[:80]!r}")
        left = sorted(os.listdir(self.work_root)) if self.work_root.is_dir() else None
        if left != ["canary.txt"]:
            found.append(f"work root {self.work_root} holds {left} after the evaluation (expected only canary.txt)")
        found += [f"{path} was created on the host" for path in self.forbidden if os.path.lexists(path)]
        exists = redis_command("EXISTS", self.redis_key)  # None: no Redis here; "-ERR...": cannot tell
        if exists is not None and exists.startswith(":") and exists != ":0":
            found.append(f"the host's Redis has the key {self.redis_key}: the sandbox reached 127.0.0.1:6379")
        found += [f"canary process {p.args} (pid {p.pid}) was killed" for p in self.processes if p.poll() is not None]
        return found

    def remove(self) -> None:
        for proc in self.processes:
            proc.kill()
            proc.wait()
        shutil.rmtree(self.folder, ignore_errors=True)
        self.media_file.unlink(missing_ok=True)
        for path in self.forbidden:
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
            elif os.path.lexists(path):
                os.unlink(path)
        redis_command("DEL", self.redis_key)


# --- one attack --------------------------------------------------------------------------------------
@dataclass
class AttackRun:
    name: str
    backend: str
    meta: dict
    targets: dict
    canaries: Canaries
    markers: dict[str, str]
    result: TaskEvaluation | None = None
    error: str | None = None
    boxes: list[WatchedSandbox] = field(default_factory=list)
    host_changes: list[str] = field(default_factory=list)
    victim: "AttackRun | None" = None
    seconds: float = 0.0

    @property
    def evidence(self) -> list[dict]:
        return [e for box in self.boxes for e in box.evidence]

    def check(self, *, expected: str | None = None, low: int | None = None, high: int | None = None) -> list[str]:
        """Everything about this run that breaks containment or the expected result (empty: contained)."""
        meta = self.meta
        expected = expected or meta["expected_outcome"]
        low = meta.get("min_passed", 0) if low is None else low
        high = meta.get("max_passed", 17) if high is None else high
        problems: list[str] = []
        if self.error:
            return [f"evaluate_task raised {self.error}"]
        r = self.result
        if r.outcome != expected and r.outcome not in meta.get("also_contained_as", []):
            problems.append(f"outcome {r.outcome!r} ({r.detail}), expected {expected!r}")
        if not low <= r.tests_passed <= high:
            problems.append(f"{r.tests_passed} tests passed, expected {low}..{high}")
        if r.tests_total != 17:
            problems.append(f"tests_total {r.tests_total}, expected 17")
        if "max_ac_implemented" in meta and r.ac_implemented > meta["max_ac_implemented"]:
            problems.append(f"AC {r.ac_implemented}/{r.ac_declared}: more than {meta['max_ac_implemented']} endpoints "
                            f"credited ({[(e.method, e.path, e.evidence) for e in r.endpoints if e.implemented]})")
        if not self.boxes:
            problems.append("no sandbox was opened")
        for box in self.boxes:
            problems += [f"survived teardown: {s}" for s in box.survivors]
            problems += [f"left behind: {item}" for item in box.leftovers]
            problems += [f"the install's egress proxy still listened on 127.0.0.1:{port} inside the task's namespace "
                         "after the install phase had ended" for port in box.proxy_left_open]
        problems += self.host_changes
        seen = {"log " + name: text for name, text in r.logs.items()}
        seen["detail"] = r.detail
        seen["evidence"] = json.dumps(self.evidence)
        for where, text in seen.items():
            for label, marker in self.markers.items():
                if marker and marker in text:
                    problems.append(f"{label} leaked into the {where}")
        for entry in self.evidence:
            if entry.get("kind") in SEVERE:
                problems.append(f"{entry['kind']}: {entry['what']} -> {entry.get('detail', '')[:120]!r}")
        whats = [f"{e.get('kind')}: {e.get('what')}" for e in self.evidence]
        for needed in meta.get("must_record", []):
            if not any(needed in w for w in whats):
                problems.append(f"the attack did not run as designed: no evidence {needed!r} was recorded")
        if "max_processes" in meta:
            peak = max((box.peak_processes for box in self.boxes), default=0)
            if peak > meta["max_processes"]:
                problems.append(f"{peak} processes at once, more than {meta['max_processes']}")
        for name, limit in meta.get("log_limits", {}).items():
            if len(r.logs.get(name, "")) > limit:
                problems.append(f"the {name} log has {len(r.logs[name])} characters, more than {limit}")
        for name, needles in meta.get("log_must_not_contain", {}).items():
            problems += [f"the {name} log shows {n!r}" for n in needles if n in r.logs.get(name, "")]
        if meta.get("victim"):
            if self.victim is None:
                problems.append("the victim task was not evaluated while the attack ran")
            else:
                problems += [f"victim: {p}" for p in self.victim.check(expected="passed", low=17, high=17)]
        return problems

    def report(self) -> dict:
        r = self.result
        return {"outcome": r and r.outcome, "passed": r and r.tests_passed, "detail": r and r.detail,
                "error": self.error, "seconds": round(self.seconds, 1), "problems": self.check(),
                "peak_processes": [b.peak_processes for b in self.boxes], "durations": r and r.durations,
                "logs": r and {k: v[:3000] for k, v in r.logs.items()}, "evidence": self.evidence,
                "victim": self.victim and self.victim.report()}

    def summary(self) -> str:
        r = self.result
        got = f"{r.outcome} {r.tests_passed}/{r.tests_total}" if r else f"error {self.error}"
        return f"{self.backend:6} {self.name:32} {got:24} {self.seconds:6.1f}s"


class Batch:
    """The attacks of one backend, with the host state they share: the canaried copy of the hidden tests,
    the work root, the secrets whose appearance anywhere means a leak."""

    def __init__(self, backend_name: str, spec, root: Path) -> None:
        self.backend_name, self.root = backend_name, root
        self.token = uuid.uuid4().hex[:10]
        self.backend = get_backend(backend_name)
        if backend_name == "local" and not self.backend.isolation.startswith("netns+bwrap"):
            pytest.fail(f"the local backend only reaches isolation {self.backend.isolation!r} here: the corpus needs "
                        "root, bubblewrap and iproute2 (netns+bwrap)", pytrace=False)
        self.hidden_canary = f"RG-HIDDEN-CANARY-{self.token}"
        self.hidden = self._canaried_copy(spec.hidden_dir)
        self.spec = dataclasses.replace(spec, limits=dataclasses.replace(spec.limits, **SMALL_LIMITS),
                                        hidden_dir=self.hidden)
        self.real_hidden = spec.hidden_dir
        self.work_base = Path(settings.EVALUATION_WORK_ROOT) / f"hostile-{backend_name}-{self.token}"
        self.env_canary = f"RG-ENV-CANARY-{self.token}"
        db = settings.DATABASES["default"]
        self.database_files = []
        if db["ENGINE"].endswith("sqlite3"):
            for name in (db.get("TEST", {}).get("NAME"), db.get("NAME"), str(Path(settings.VAR_DIR) / "db.sqlite3")):
                if name and name != ":memory:":
                    self.database_files += [name, f"{name}-wal"]
        self.markers = {
            "the hidden tests' canary": self.hidden_canary,
            "the hidden test source": "def test_list_filter_completed",
            "the canary processes' environment": self.env_canary,
            "the Django settings": "EVALUATION_WORK_ROOT",
            "the SECRET_KEY": settings.SECRET_KEY,
            "the database file": "SQLite format 3",
        }
        self.runs: dict[str, AttackRun] = {}

    def _canaried_copy(self, hidden: Path) -> Path:
        target = self.root / "hidden" / hidden.name
        shutil.copytree(hidden, target)
        for path in target.rglob("*"):
            if path.suffix == ".py":
                path.write_text(f"# {self.hidden_canary}\n{path.read_text()}\n# {self.hidden_canary}\n")
            elif path.name == "requirements.txt":
                path.write_text(f"{path.read_text()}# {self.hidden_canary}\n")
        return target

    # --- one attack ---
    def prepare(self, name: str, corpus_name: str | None = None) -> AttackRun:
        corpus_name = corpus_name or name
        meta = _attack_meta(corpus_name)
        tag = f"{self.token}-{self.backend_name}-{name}"
        folder = Path(f"/tmp/rg-hostile-canary-{tag}")
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        folder.chmod(0o777)
        work_root = self.work_base / name
        work_root.mkdir(parents=True)
        work_root.chmod(0o711)
        media = Path(settings.MEDIA_ROOT)
        media.mkdir(parents=True, exist_ok=True)
        tc = toolchain()
        base_dir = Path(settings.BASE_DIR)
        storage = self.real_hidden.parent.parent
        pwned = f"rg-hostile-pwned-{tag}"
        forbidden = [Path(f"/tmp/rg-hostile-{name}-{self.backend_name}-pwned"), folder / "pwned",
                     work_root / "pwned", media / pwned, base_dir / pwned, storage / pwned, tc.uv_cache / pwned,
                     tc.runner_envs / pwned, self.real_hidden / pwned, Path("/var/tmp") / pwned, Path("/root") / pwned,
                     Path("/etc") / pwned, Path("/dev/shm") / pwned, Path("/run") / pwned]
        canaries = Canaries(
            folder=folder, file=folder / "canary.txt", file_text=f"RG-HOST-CANARY-{tag}\n", work_root=work_root,
            work_text=f"RG-WORK-CANARY-{tag}\n", media_file=media / f"rg-hostile-{tag}.txt",
            media_text=f"RG-MEDIA-CANARY-{tag}\n", forbidden=forbidden, redis_key=f"rg-hostile-{tag}")
        canaries.remove()  # leftovers of an earlier run with these names
        folder.mkdir()
        folder.chmod(0o777)
        _fresh_file(canaries.file, canaries.file_text, 0o666)
        _fresh_file(work_root / "canary.txt", canaries.work_text, 0o666)
        _fresh_file(canaries.media_file, canaries.media_text, 0o666)
        env = {"PATH": "/usr/bin:/bin", "RG_HOSTILE_ENV_CANARY": self.env_canary}
        canaries.processes = [
            subprocess.Popen(["sleep", "1800"], env=env, start_new_session=True),
            subprocess.Popen(["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "sleep", "1800"],
                             env=env, start_new_session=True),
        ]
        limits = getattr(self.backend, "limits", ResourceLimits())
        targets = {
            "attack": name, "backend": self.backend_name, "token": self.token, "port": self.spec.port,
            "pwned_file": str(forbidden[0]), "forbidden_new": [str(p) for p in forbidden],
            "canary_dir": str(folder), "canary_file": str(canaries.file), "work_root": str(work_root),
            "work_root_canary": str(work_root / "canary.txt"), "hidden_dir": str(self.hidden),
            "benchmark_hidden_dir": str(self.real_hidden), "benchmark_storage": str(storage),
            "base_dir": str(base_dir), "settings_file": str(base_dir / "config" / "settings.py"),
            "env_file": str(base_dir / ".env"), "var_dir": str(settings.VAR_DIR),
            "secret_key_file": str(Path(settings.VAR_DIR) / "secret_key"), "database_files": self.database_files,
            "media_root": str(media), "media_canary_file": str(canaries.media_file),
            "uv_cache": str(tc.uv_cache), "runner_envs": str(tc.runner_envs), "host_ips": host_ips(),
            "worker_pid": os.getpid(), "canary_pids": [p.pid for p in canaries.processes],
            "redis_key": canaries.redis_key, "memory_limit": limits.memory_bytes, "pids_limit": limits.pids,
            "disk_budget": getattr(self.spec.limits, "disk_bytes", DISK_BUDGET),
        }
        markers = {**self.markers, "the host canary file": canaries.file_text.strip(),
                   "the work root canary": canaries.work_text.strip(), "the media canary": canaries.media_text.strip()}
        return AttackRun(name=name, backend=self.backend_name, meta=meta, targets=targets, canaries=canaries,
                         markers=markers)

    def materialize(self, run: AttackRun, corpus_name: str) -> Path:
        repo = self.root / "repos" / run.name
        shutil.copytree(CORPUS / corpus_name, repo, symlinks=True, ignore=shutil.ignore_patterns("attack.json"))
        shutil.copy(KIT, repo / "hostile_kit.py")
        (repo / "hostile_targets.json").write_text(json.dumps(run.targets, indent=1))
        for link, template in run.meta.get("symlinks", {}).items():
            (repo / link).parent.mkdir(parents=True, exist_ok=True)
            os.symlink(template.format(**run.targets), repo / link)
        for archive, folder in run.meta.get("sdists", {}).items():  # a source folder shipped as an sdist instead
            base = archive.removesuffix(".tar.gz")
            with tarfile.open(repo / archive, "w:gz") as tar:
                tar.add(repo / folder, arcname=base)
            shutil.rmtree(repo / folder)
        return repo

    def evaluate(self, name: str, corpus_name: str | None = None, on_phase=None) -> AttackRun:
        corpus_name = corpus_name or name
        run = self.prepare(name, corpus_name)
        repo = self.materialize(run, corpus_name)
        backend = WatchedBackend(self.backend, monitor="max_processes" in run.meta,
                                 check_proxy_closed=run.meta.get("check_proxy_closed", False))
        started = time.monotonic()
        try:
            spec = self.spec
            if run.meta.get("start_limit"):  # an attack that runs to its end before the service starts
                spec = dataclasses.replace(spec, limits=dataclasses.replace(spec.limits,
                                                                            start=float(run.meta["start_limit"])))
            run.result = evaluate_task(spec=spec, repo_src=repo, backend=backend, work_root=run.canaries.work_root,
                                       toolchain=toolchain(), on_phase=on_phase)
        except Exception as exc:  # noqa: BLE001 - reported by the attack's test
            run.error = f"{type(exc).__name__}: {exc}"
        run.seconds = time.monotonic() - started
        run.boxes = backend.opened
        run.host_changes = run.canaries.changes()
        run.canaries.remove()
        shutil.rmtree(run.canaries.work_root, ignore_errors=True)
        return run

    def evaluate_attack(self, name: str) -> AttackRun:
        if not _attack_meta(name).get("victim"):
            return self.evaluate(name)
        # The attack squats on the task's port while a second task that needs the same port is evaluated.
        victim: dict[str, AttackRun] = {}

        def on_phase(phase: str) -> None:
            if phase == "probe" and not victim:
                victim["run"] = self.evaluate(f"{name}-victim", "baseline-reference")

        run = self.evaluate(name, on_phase=on_phase)
        run.victim = victim.get("run")
        return run

    def run_all(self, names: list[str]) -> None:
        heavy = [n for n in names if _attack_meta(n).get("heavy")]
        light = [n for n in names if n not in heavy]
        with ThreadPoolExecutor(1) as heavy_pool, ThreadPoolExecutor(LIGHT_WORKERS) as light_pool:
            futures = {n: heavy_pool.submit(self.evaluate_attack, n) for n in heavy}
            futures.update({n: light_pool.submit(self.evaluate_attack, n) for n in light})
            for name, future in futures.items():
                self.runs[name] = future.result()
        shutil.rmtree(self.work_base, ignore_errors=True)
        for name in names:
            print(self.runs[name].summary())
        if os.environ.get("HOSTILE_REPORT"):  # a JSON dump of every run, for reading the evidence at leisure
            Path(os.environ["HOSTILE_REPORT"]).with_suffix(f".{self.backend_name}.json").write_text(
                json.dumps({name: self.runs[name].report() for name in names}, indent=1, default=str))


_BATCHES: dict[str, Batch] = {}


def batch_for(request, backend_name: str, demo_split, root: Path) -> Batch:
    """The batch of `backend_name`, evaluated on first use with every attack selected for it in this session."""
    if backend_name not in _BATCHES:
        selected = [item.callspec.params["attack"] for item in request.session.items
                    if getattr(item, "originalname", "") == request.node.originalname
                    and item.callspec.params.get("backend_name") == backend_name]
        spec = task_spec(demo_split.tasks.get(name="TodoList"))
        assert spec.hidden_dir == task_hidden_dir(demo_split.tasks.get(name="TodoList"))
        batch = Batch(backend_name, spec, root)
        started = time.monotonic()
        batch.run_all(selected)
        print(f"{backend_name}: {len(selected)} attacks in {time.monotonic() - started:.1f} s")
        _BATCHES[backend_name] = batch
    return _BATCHES[backend_name]


BACKENDS = [pytest.param("local", marks=pytest.mark.slow, id="local"),
            pytest.param("docker", marks=pytest.mark.docker, id="docker")]


@pytest.mark.parametrize("attack", ATTACKS)
@pytest.mark.parametrize("backend_name", BACKENDS)
def test_hostile_repository_is_contained(request, backend_name, attack, demo_split, tmp_path_factory):
    if backend_name == "docker":
        request.getfixturevalue("dockerd")
    batch = batch_for(request, backend_name, demo_split, tmp_path_factory.mktemp(f"hostile-{backend_name}"))
    run = batch.runs[attack]

    problems = run.check()

    assert problems == [], f"{attack} on {backend_name} is not contained:\n  " + "\n  ".join(problems)


def test_every_attack_declares_a_known_outcome_and_bounds():
    """attack.json of every corpus repository (fast: no evaluation)."""
    assert len(ATTACKS) >= 20
    for name in ATTACKS:
        meta = _attack_meta(name)
        assert meta["description"].strip(), name
        assert meta["expected_outcome"] in {o.value for o in Outcome}, name
        assert 0 <= meta.get("min_passed", 0) <= meta.get("max_passed", 17) <= 17, name
        # start.sh at the root, or below it where the platform looks for it (core.engine.layout.find_start_script)
        assert any((CORPUS / name).rglob("start.sh")) or meta["expected_outcome"] == "no_start_script", name
        assert not any(p.is_symlink() for p in (CORPUS / name).rglob("*")), f"{name}: symlinks go in attack.json"
