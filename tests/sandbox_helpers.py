"""Helpers the sandbox tests of both backends (local and docker) share: polling, HTTP, scripts, processes."""
from __future__ import annotations

import http.client
import socket
import time
from pathlib import Path

from core.engine.readiness import port_state
from core.sandbox import Mount, Role


def eventually(check, timeout: float = 10.0, interval: float = 0.1):
    """Poll check() until it returns something truthy (returned) or `timeout` passes (last value returned)."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(interval)


def http_get(port: int, path: str = "/") -> tuple[int, bytes]:
    """GET `path` from 127.0.0.1:`port` (of the calling network namespace); returns (status, body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def wait_http(sandbox, port: int, timeout: float = 15.0) -> str:
    """Poll the sandbox's loopback until `port` answers HTTP; returns the last port state."""
    eventually(lambda: sandbox.in_network(lambda: port_state(port)) == "http", timeout)
    return sandbox.in_network(lambda: port_state(port))


def write_script(path: Path, text: str) -> Path:
    """Write `text` to `path`, make it executable and return the path."""
    path.write_text(text)
    path.chmod(0o755)
    return path


def run_py(sandbox, work: Path, code: str, *args: str, role: Role = Role.SERVICE, timeout: float = 30,
           env: dict | None = None):
    """Run `python3 -c code args...` in the sandbox as `role`, in `work` (mounted writable); returns its result."""
    return sandbox.run(["python3", "-c", code, *args], role=role, cwd=work, env=env or {}, timeout=timeout,
                       mounts=[Mount(work, True)])


def live_processes(marker: str, *, uid: int | None = None) -> list[int]:
    """Pids of live (not zombie or dead) processes whose command line holds `marker` (and whose real uid is `uid`)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if fields.get("State", "").split()[:1] in (["Z"], ["X"]):
            continue
        if marker not in cmdline:
            continue
        if uid is not None and int(fields["Uid"].split()[0]) != uid:
            continue
        found.append(int(entry.name))
    return found


def host_address() -> str | None:
    """The host's own address on its default route (None when it has none)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            return probe.getsockname()[0]
        except OSError:
            return None


def java_task_run(tmp_path, hidden_test: str, tests_total: int):
    """A TaskRun of javalin-task-manager (no backend, not started) whose hidden suite is `hidden_test`, the source of
    tests/ApiTest.java, with N = `tests_total`: for white-box tests of how the runner reads reports."""
    from core.engine.runner import TaskRun
    from core.engine.spec import TaskSpec
    from core.engine.toolchain import Toolchain

    hidden = tmp_path / "hidden"
    (hidden / "src" / "test" / "java" / "tests").mkdir(parents=True)
    (hidden / "src" / "test" / "java" / "tests" / "ApiTest.java").write_text(hidden_test)
    spec = TaskSpec(name="javalin-task-manager", language="java", port=18999, hidden_dir=hidden,
                    tests_total=tests_total)
    return TaskRun(spec=spec, repo_src=None, backend=None, work_root=tmp_path / "work", toolchain=Toolchain())


#: Red team round 16/17: a trace function that sets every local pytest's rewritten asserts keep (`@py_assert...`)
#: true as each line runs, in every thread.
TRACE_ASSERTS_TRUE = """
import sys
import threading

def _trace(frame, event, arg):
    if event == "line":
        for name in [n for n in frame.f_locals if n.startswith("@py_assert")]:
            frame.f_locals[name] = True
    return _trace

sys.settrace(_trace)
threading.settrace(_trace)
"""
