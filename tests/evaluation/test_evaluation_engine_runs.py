"""The engine end to end on the demo benchmark (docs/scoring.md "The run of one task", "Failure taxonomy").

Real sandbox, real installs (warm uv cache), real hidden suites. Each test gets its own work root
under settings.EVALUATION_WORK_ROOT, so the leftover checks (work folder gone, no process of the
sandbox users left) only look at what this test started.
"""
from __future__ import annotations

import dataclasses
import pwd
import socket
import textwrap
import time
import uuid
from pathlib import Path

import pytest

from core.engine.runner import evaluate_task
from core.engine.spec import PhaseLimits, TaskEvaluation
from evaluation.engine_setup import sandbox_backend, task_spec, toolchain, work_root
from evaluation.pipeline import folder_evaluate, repo_evaluate
from tests.sandbox_helpers import eventually
from catalog.services import task_reference_dir

ROOT = Path(__file__).resolve().parents[2]
SUBMISSIONS = ROOT / "benchmarks" / "demo-submissions"
FAST = PhaseLimits(install=120, start=5, test_case=10, test_suite=60)

#: A stdlib service that answers GET /health like the TodoList suite expects and 404 to everything else,
#: so the suite starts at once and fails fast.
HEALTH_ONLY = """
import http.server, json, os

class Handler(http.server.BaseHTTPRequestHandler):
    def _answer(self):
        ok = self.command == "GET" and self.path == "/health"
        body = json.dumps({"status": "ok"} if ok else {"error": "not found"}).encode()
        self.send_response(200 if ok else 404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _answer

    def log_message(self, *args):
        pass

http.server.ThreadingHTTPServer(("127.0.0.1", int(os.environ["PORT"])), Handler).serve_forever()
"""


# --- leftovers -----------------------------------------------------------------------------------
def _sandbox_uids() -> set[int]:
    """Every sandbox user of this machine (service and runner pools: names starting with `rg-`)."""
    return {entry.pw_uid for entry in pwd.getpwall() if entry.pw_name.startswith("rg-")}


def processes_touching(root: Path) -> list[str]:
    """Live processes of the sandbox users whose cwd, command line or environment mention `root`."""
    needle, uids, found = str(root), _sandbox_uids(), []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
            if fields.get("State", "").split()[:1] == ["Z"] or int(fields["Uid"].split()[0]) not in uids:
                continue
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            environ = (entry / "environ").read_bytes().decode(errors="replace")
            try:
                cwd = str((entry / "cwd").readlink())
            except OSError:
                cwd = ""
        except OSError:
            continue
        if needle in cmdline or needle in environ or cwd.startswith(needle):
            found.append(f"{entry.name}: {cmdline[:120]}")
    return found


@pytest.fixture
def own_work_root(settings):
    """A fresh work root for this test (settings.EVALUATION_WORK_ROOT/<unique>); checked clean afterwards."""
    root = Path(settings.EVALUATION_WORK_ROOT) / f"test-{uuid.uuid4().hex[:8]}"
    settings.EVALUATION_WORK_ROOT = root
    yield root
    eventually(lambda: not processes_touching(root), 5)
    assert processes_touching(root) == [], "processes of the sandbox users survived the evaluation"
    assert not root.exists() or list(root.iterdir()) == [], "the task's work folder was not removed"
    if root.exists():
        root.rmdir()  # the test's own (empty) root: no litter under the shared work root
    if root.exists():
        root.rmdir()


@pytest.fixture
def task_named(demo_split):
    return lambda name: demo_split.tasks.get(name=name)


def make_repo(tmp_path: Path, files: dict[str, str]) -> Path:
    repo = tmp_path / "repo"
    for rel, text in files.items():
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())
        if rel.endswith(".sh"):
            path.chmod(0o755)
    return repo


def evaluate_fast(task, repo: Path | None, limits: PhaseLimits = FAST, *, tools=None, **spec_changes) -> TaskEvaluation:
    """evaluate_task with the configured backend and toolchain (or `tools`), but small phase limits."""
    spec = dataclasses.replace(task_spec(task), limits=limits, **spec_changes)
    return evaluate_task(spec=spec, repo_src=repo, backend=sandbox_backend(), work_root=work_root(),
                         toolchain=tools or toolchain())


def evidence(evaluation: TaskEvaluation) -> dict[tuple[str, str], tuple[bool, str]]:
    return {(e.method, e.path): (e.implemented, e.evidence) for e in evaluation.endpoints}


# --- the demo references and submissions ---------------------------------------------------------
def test_todolist_reference_passes_with_full_marks(own_work_root, task_named):
    task = task_named("TodoList")
    phases, running = [], {}

    def on_phase(phase: str) -> None:
        phases.append(phase)
        if phase == "test":  # the service is up: its processes are visible to the leftover check
            running["service"] = processes_touching(own_work_root)

    result = repo_evaluate(task=task, repo=task_reference_dir(task), on_phase=on_phase)

    assert result.outcome == "passed", result.detail
    assert (result.tests_passed, result.tests_total) == (17, 17)
    assert result.pass_at_1 == 1.0 and result.solved == 1
    assert result.dsr == 1
    assert result.ac == 1.0
    assert result.ac_declared == len(task.declared_endpoints) > 0
    assert {e.evidence for e in result.endpoints} == {"probe"}
    assert len(result.cases) == 17 and {c.status for c in result.cases} == {"passed"}
    assert set(result.durations) == {"install", "start", "probe", "test"}
    assert "flask==3.1.1" in result.logs["install"].lower()
    assert phases == ["materialize", "install", "start", "probe", "test", "teardown"]
    assert running["service"], "the service should have been running as rg-service during the tests"


def test_agent_alpha_todolist_fails_the_update_tests_and_lacks_put(own_work_root, task_named):
    task = task_named("TodoList")

    result = repo_evaluate(task=task, repo=SUBMISSIONS / "agent-alpha" / "TodoList")

    assert result.outcome == "tests_failed", result.detail
    assert (result.tests_passed, result.tests_total) == (14, 17)
    assert result.dsr == 1
    put = [(e.implemented, e.evidence) for e in result.endpoints if e.method == "PUT"]
    assert put == [(False, "none")]
    assert result.ac_implemented == result.ac_declared - 1
    assert sum(c.status == "passed" for c in result.cases) == 14


def test_agent_beta_notes_has_no_start_script(own_work_root, task_named):
    task = task_named("Notes")

    result = repo_evaluate(task=task, repo=SUBMISSIONS / "agent-beta" / "Notes")

    assert result.outcome == "no_start_script"
    assert (result.dsr, result.tests_passed, result.tests_total) == (0, 0, task.tests_total)
    assert task.tests_total == 15
    assert "start" not in result.durations and "test" not in result.durations
    # The service never ran, so AC falls back to the static check of the code that is there.
    assert {e.evidence for e in result.endpoints} <= {"static", "none"}


def test_agent_beta_bookstore_crashes_at_start_and_shows_why(own_work_root, task_named):
    task = task_named("Bookstore")

    result = repo_evaluate(task=task, repo=SUBMISSIONS / "agent-beta" / "Bookstore")

    assert result.outcome == "start_crashed", result.detail
    assert (result.dsr, result.tests_passed, result.tests_total) == (0, 0, 18)
    assert "No module named 'uvicorn'" in result.logs["start"]
    assert result.durations["start"] < 30


@pytest.mark.parametrize("repo", ["absent-folder", None])
def test_missing_task_folder_scores_zero_of_all_tests(own_work_root, task_named, tmp_path, repo):
    task = task_named("TodoList")

    result = repo_evaluate(task=task, repo=tmp_path / repo if repo else None)

    assert result.outcome == "missing"
    assert (result.dsr, result.tests_passed, result.tests_total) == (0, 0, 17)
    assert result.pass_at_1 == 0.0
    assert result.durations == {}


def test_folder_evaluate_returns_results_in_task_order(own_work_root, task_named, tmp_path):
    tasks = [task_named("Notes"), task_named("TodoList"), task_named("Bookstore")]
    root = tmp_path / "submission"
    (root / "Notes").mkdir(parents=True)
    (root / "Notes" / "README.md").write_text("code but no start.sh\n")  # TodoList and Bookstore are absent
    seen = []

    results = folder_evaluate(tasks=tasks, root=root, concurrency=2, on_done=lambda t, e: seen.append(t.name))

    assert [(t.name, e.outcome) for t, e in results] == [
        ("Notes", "no_start_script"), ("TodoList", "missing"), ("Bookstore", "missing")]
    assert [e.tests_total for _, e in results] == [15, 17, 18]
    assert sorted(seen) == ["Bookstore", "Notes", "TodoList"]


# --- failures a submitter can cause --------------------------------------------------------------
def test_requirement_that_does_not_exist_fails_the_install(own_work_root, task_named, tmp_path):
    task = task_named("TodoList")
    repo = make_repo(tmp_path, {
        "requirements.txt": "rg-leaderboard-no-such-package-4f9a2c==1.0\n",
        "start.sh": "exec python app.py\n",
        "app.py": "print('never started')\n",
    })

    result = evaluate_fast(task, repo)

    assert result.outcome == "install_failed", result.detail
    assert (result.dsr, result.tests_passed, result.tests_total) == (0, 0, 17)
    assert "rg-leaderboard-no-such-package-4f9a2c" in result.logs["install"]
    assert "start" not in result.durations


def test_no_requirements_file_installs_nothing_and_still_runs(own_work_root, task_named, tmp_path):
    """No requirements.txt: no default packages; here the service needs none (stdlib only)."""
    task = task_named("TodoList")
    repo = make_repo(tmp_path, {"server.py": HEALTH_ONLY, "start.sh": "exec python server.py\n"})

    result = evaluate_fast(task, repo)

    assert "nothing installed" in result.logs["install"]
    assert result.dsr == 1
    assert result.outcome == "tests_failed", result.detail
    assert 0 < result.tests_passed < 17
    assert ("tests.test_todos::test_health", "passed") in {(c.name, c.status) for c in result.cases}
    assert result.ac_implemented == 1  # GET /health


def test_port_that_speaks_no_http_is_not_http(own_work_root, task_named, tmp_path):
    task = task_named("TodoList")
    repo = make_repo(tmp_path, {
        "garbage.py": """
            import os, socket
            server = socket.socket()
            server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            server.bind(("127.0.0.1", int(os.environ["PORT"])))
            server.listen(16)
            while True:
                conn, _ = server.accept()
                conn.recv(1024)
                conn.sendall(b"\\x00\\x01garbage, not HTTP at all\\r\\n\\r\\n")
                conn.close()
        """,
        "start.sh": "exec python3 garbage.py\n",
    })
    started = time.monotonic()

    result = evaluate_fast(task, repo, dataclasses.replace(FAST, start=3))

    assert result.outcome == "not_http", result.detail
    assert (result.dsr, result.tests_passed, result.tests_total) == (0, 0, 17)
    assert 3 <= result.durations["start"] < 8
    assert time.monotonic() - started < 30


def test_service_on_the_wrong_port_times_out_at_start(own_work_root, task_named, tmp_path):
    task = task_named("TodoList")
    repo = make_repo(tmp_path, {"start.sh": 'exec python3 -u -m http.server "$((PORT + 1))" --bind 127.0.0.1\n'})

    result = evaluate_fast(task, repo, dataclasses.replace(FAST, start=2))

    assert result.outcome == "start_timeout", result.detail
    assert (result.dsr, result.tests_passed, result.tests_total) == (0, 0, 17)
    assert "8081" in result.logs["start"]  # what it printed up to the deadline is kept
    assert 2 <= result.durations["start"] < 6


def test_start_script_that_backgrounds_the_server_and_exits_is_fine(own_work_root, task_named, tmp_path):
    task = task_named("TodoList")
    repo = make_repo(tmp_path, {
        "server.py": HEALTH_ONLY,
        "start.sh": "nohup python server.py > server.log 2>&1 &\necho launched\n",
    })

    result = evaluate_fast(task, repo)

    assert result.dsr == 1, result.detail
    assert result.outcome == "tests_failed"
    assert 0 < result.tests_passed < 17
    assert "launched" in result.logs["start"]


HANG = """
import os, socket
server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", int(os.environ["PORT"])))
server.listen(64)
held = []
conn, _ = server.accept()  # the readiness check gets an answer ...
conn.recv(1024)
conn.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Length: 2\\r\\nConnection: close\\r\\n\\r\\nok")
conn.close()
while True:  # ... and every later request waits forever
    conn, _ = server.accept()
    held.append(conn)
"""


def test_service_that_hangs_on_every_request_fails_its_tests_within_the_suite_limit(own_work_root, task_named,
                                                                                   tmp_path):
    """The test phase alone (no declared endpoints, so no probe): per-test time-outs end it quickly."""
    task = task_named("TodoList")
    repo = make_repo(tmp_path, {"hang.py": HANG, "start.sh": "exec python3 hang.py\n"})
    limits = PhaseLimits(install=120, start=5, test_case=2, test_suite=20)
    started = time.monotonic()

    result = evaluate_fast(task, repo, limits, endpoints=())

    assert result.dsr == 1
    assert result.outcome in ("tests_failed", "tests_timeout"), result.detail
    assert (result.tests_passed, result.tests_total) == (0, 17)
    assert result.durations["test"] <= limits.test_suite + 5
    assert time.monotonic() - started < 40


@pytest.mark.slow
def test_service_that_hangs_on_every_request_is_probed_and_tested_in_bounded_time(own_work_root, task_named,
                                                                                  tmp_path):
    """With the task's declared endpoints: the probe times out per request, then the tests fail."""
    task = task_named("TodoList")
    repo = make_repo(tmp_path, {"hang.py": HANG, "start.sh": "exec python3 hang.py\n"})
    limits = PhaseLimits(install=120, start=5, test_case=2, test_suite=20)
    started = time.monotonic()

    result = evaluate_fast(task, repo, limits)

    assert result.dsr == 1
    assert result.outcome in ("tests_failed", "tests_timeout"), result.detail
    assert (result.tests_passed, result.tests_total) == (0, 17)
    assert result.ac_implemented == 0
    assert time.monotonic() - started < 90


@pytest.mark.slow  # 10-15 s: a Maven build and a JVM
def test_inventory_service_java_reference_passes(own_work_root, task_named):
    task = task_named("InventoryService")

    result = repo_evaluate(task=task, repo=task_reference_dir(task))

    assert result.outcome == "passed", result.detail
    assert (result.tests_passed, result.tests_total) == (15, 15)
    assert result.dsr == 1 and result.ac == 1.0


def test_code_run_at_install_cannot_reach_the_hosts_own_services(own_work_root, task_named, tmp_path):
    """requirements.txt may name a local package, whose build runs submitted code during install.

    That code may reach the package index, but must not reach what listens on the host's loopback
    (the Redis broker, the database, the site): here a listener the test opens on 127.0.0.1.
    """
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)
    port = listener.getsockname()[1]
    task = task_named("TodoList")
    repo = make_repo(tmp_path, {
        "requirements.txt": "./calling_home\n",
        "calling_home/setup.py": f"""
            import socket
            from setuptools import setup
            try:
                socket.create_connection(("127.0.0.1", {port}), timeout=3).sendall(b"reached the host")
            except OSError:
                pass
            setup(name="calling-home", version="0.1", py_modules=[])
        """,
        "start.sh": "exec python -c 'print(1)'\n",
    })
    try:
        result = evaluate_fast(task, repo, dataclasses.replace(FAST, start=1))
        assert "calling-home==0.1" in result.logs["install"], "the package was not built: its code never ran"
        try:
            conn, _ = listener.accept()
            conn.close()
            reached = True
        except (TimeoutError, BlockingIOError):
            reached = False
    finally:
        listener.close()

    assert reached is False, "code run during install connected to a service on the host's 127.0.0.1"


def test_code_run_at_install_cannot_change_the_shared_package_cache(own_work_root, task_named, tmp_path):
    """The warm uv cache serves every submission's install: one submission must not be able to change
    what another one installs (e.g. rewrite a cached Flask so a rival's service crashes)."""
    name = f"rg-planted-{uuid.uuid4().hex[:8]}"
    # A toolchain of its own, so that a regression damages only this test's copy of a shared cache.
    tools = dataclasses.replace(toolchain(), cache_root=tmp_path / "cache")
    shared = tools.uv_cache
    for rel in ("archive-v0/abc123/flask/__init__.py", "wheels-v5/pypi/flask/flask-3.1.1.msgpack"):
        (shared / rel).parent.mkdir(parents=True, exist_ok=True)
        (shared / rel).write_text("cached by the platform\n")
    before = {p: p.stat().st_size for p in shared.rglob("*") if p.is_file()}
    task = task_named("TodoList")
    repo = make_repo(tmp_path, {
        "requirements.txt": "./planter\n",
        "planter/setup.py": f"""
            import os, pathlib
            from setuptools import setup
            cache = os.environ.get("UV_CACHE_DIR", "")
            for dirpath, _, files in os.walk(cache):
                for file in files:
                    try:
                        with open(os.path.join(dirpath, file), "ab") as handle:
                            handle.write(b"#planted")
                    except OSError:
                        pass
            try:
                pathlib.Path(cache, "{name}").write_text("planted")
            except OSError:
                pass
            setup(name="planter", version="0.1", py_modules=[])
        """,
        "start.sh": "exec python -c 'print(1)'\n",
    })
    planted = shared / name
    try:
        result = evaluate_fast(task, repo, dataclasses.replace(FAST, start=1), tools=tools)
        assert "planter==0.1" in result.logs["install"], "the package was not built: its code never ran"
        changed = [str(p) for p, size in before.items() if p.exists() and p.stat().st_size != size]
        assert not planted.exists(), "code run during install added a file to the shared cache"
        assert changed == [], f"code run during install changed {len(changed)} shared cache files"
    finally:
        planted.unlink(missing_ok=True)


# --- what a team reads of a failed start (issue 12 defects) ----------------------------------------
def test_a_start_script_with_windows_line_endings_says_so(own_work_root, task_named, tmp_path):
    task = task_named("TodoList")
    repo = make_repo(tmp_path, {"server.py": HEALTH_ONLY})
    (repo / "start.sh").write_bytes(b"#!/bin/sh\r\nexec python server.py\r\n")
    (repo / "start.sh").chmod(0o755)

    result = evaluate_fast(task, repo)

    assert result.outcome == "start_crashed", result.detail
    assert "start.sh has Windows line endings" in result.detail


def test_logs_shown_to_the_team_hold_paths_relative_to_the_repository(own_work_root, task_named, tmp_path):
    task = task_named("TodoList")
    repo = make_repo(tmp_path, {"app.py": "import json\nraise SystemExit(open('data/missing.json').read())\n",
                                "start.sh": "exec python app.py\n"})

    result = evaluate_fast(task, repo)

    assert result.outcome == "start_crashed", result.detail
    log = result.logs["start"]
    assert 'File "app.py"' in log, log
    assert str(own_work_root) not in log and "/var/work/" not in log
