"""Every outcome of docs/scoring.md "Failure taxonomy" produced by the engine on a small repository of its own, and
what the submission's page shows a submitter for it (issue 16): the outcome badge, the one-line detail, the logs of
the team's own service (its members only) and the per-test outcomes (public splits only).

Real sandbox, real installs (warm uv cache), a two-test hidden suite written here (the Java case: the demo
InventoryService with a compile error). Each repository is evaluated by `core.engine.runner.evaluate_task`, stored
on a finished submission through the pipeline (`evaluation.pipeline.result_store`, `run_finalize_if_done`) and read
back from `/submissions/<id>/` as its owner and anonymously. `harness_error` goes through the worker's own step
(`evaluation.pipeline.result_process`) with a docker backend whose dockerd does not answer.

Already covered elsewhere, for the engine's outcome alone: tests/evaluation/test_evaluation_engine_runs.py (missing,
no_start_script, install_failed, start_crashed, start_timeout, not_http, tests_failed, passed),
test_java_builds.py (build_failed), test_forged_reports.py (tampered), test_evaluation_claims.py and
test_unsandboxed.py (harness_error). New here: an exact `tests_timeout`, and the page of every outcome.
`invalid_layout` is not produced by any phase: an upload's layout is checked before it is stored (docs/scoring.md
"What an upload is checked for"), so this file has no case for it.
"""
from __future__ import annotations

import dataclasses
import shutil
import textwrap
from pathlib import Path

import pytest
from django.utils.html import escape

from catalog.services import system_create, task_reference_dir, team_for_user
from core.engine.runner import evaluate_task
from core.engine.spec import PhaseLimits, TaskEvaluation, TaskSpec
from evaluation.engine_setup import sandbox_backend, task_spec, toolchain, work_root
from tests.factories import finished_submission

pytestmark = pytest.mark.slow  # a real sandbox and a real install per case

LIMITS = PhaseLimits(install=120, start=5, test_case=20, test_suite=60)

#: The hidden suite of every Python case: two tests of GET /ping and GET /echo/7 on the task's port.
SUITE = """
import requests

BASE = "http://localhost:{port}"

def test_ping():
    assert requests.get(BASE + "/ping", timeout=20).json() == {{"pong": True}}

def test_echo():
    assert requests.get(BASE + "/echo/7", timeout=20).text == "7"
"""
#: A stdlib service: GET /ping answers {"pong": true}; GET /echo/<x> answers x when ECHO=1 is set by start.sh;
#: it prints one line when it listens, and one per request (what it prints while the tests run never reaches the
#: page, because the start log is read when the port answers).
SERVICE = """
import http.server, json, os

ECHO = os.environ.get("ECHO") == "1"

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        print("request", self.path, flush=True)
        if self.path == "/ping":
            code, body = 200, json.dumps({"pong": True})
        elif self.path.startswith("/echo/") and ECHO:
            code, body = 200, self.path[len("/echo/"):]
        else:
            code, body = 404, "not found"
        data = body.encode()
        self.send_response(code)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass

server = http.server.ThreadingHTTPServer(("127.0.0.1", int(os.environ["PORT"])), Handler)
print("service listening", flush=True)
server.serve_forever()
"""
#: Answers the readiness check, then holds every later connection without a reply.
HANG = """
import os, socket
server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", int(os.environ["PORT"])))
server.listen(64)
held = []
conn, _ = server.accept()
conn.recv(1024)
conn.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Length: 2\\r\\nConnection: close\\r\\n\\r\\nok")
conn.close()
while True:
    conn, _ = server.accept()
    held.append(conn)
"""
#: Accepts TCP and answers bytes that are not HTTP.
GARBAGE = """
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
"""
#: The `tampered` case: the report rewritten at exit so every case reads passed. No submission can do this any more
#: (white-box suites run split in two, core/engine/bridge; in-process Java suites are slow to build here), so the hidden
#: suite itself does it: the outcome is produced by the platform's own check and shown as any forged report's would be.
FORGING_SUITE = SUITE + """
import atexit, re, sys

def _forge():
    path = next(a.split("=", 1)[1] for a in sys.argv if a.startswith("--junitxml="))
    text = open(path).read()
    text = re.sub(r"<(failure|error|skipped)\\b.*?(/>|</\\1>)", "", text, flags=re.S)
    text = re.sub(r'(failures|errors|skipped)="\\d+"', r'\\1="0"', text)
    open(path, "w").write(text)

atexit.register(_forge)
"""


@dataclasses.dataclass(frozen=True)
class Case:
    """One outcome: the repository's files (None: no folder at all), the hidden suite, the limits, and what a
    submitter must read: the detail line (`{port}` is the task's port) and the logs the team sees."""

    repo: dict[str, str] | None
    detail: str
    logs: tuple[str, ...]
    suite: str = SUITE
    limits: PhaseLimits = LIMITS
    passed: int = 0
    dsr: int = 0


SERVICE_FILES = {"app.py": SERVICE}
CASES = {
    "passed": Case({**SERVICE_FILES, "start.sh": "ECHO=1 exec python3 -u app.py\n"},
                   "all 2 hidden tests passed", ("install", "start"), passed=2, dsr=1),
    "tests_failed": Case({**SERVICE_FILES, "start.sh": "exec python3 -u app.py\n"},
                         "1 of 2 hidden tests passed", ("install", "start"), passed=1, dsr=1),
    "tests_timeout": Case({"hang.py": HANG, "start.sh": "exec python3 hang.py\n"},
                          "the hidden suite ran past 4 s", ("install", "start"),
                          limits=dataclasses.replace(LIMITS, test_suite=4), dsr=1),
    "tampered": Case({**SERVICE_FILES, "start.sh": "exec python3 -u app.py\n"},
                     "the platform's sentinel tests did not come back as run (one must pass, two must be skipped: "
                     "the first and the last): the test report was altered", ("install", "start"),
                     suite=FORGING_SUITE, dsr=1),
    "not_http": Case({"garbage.py": GARBAGE, "start.sh": "exec python3 garbage.py\n"},
                     "port {port} accepted TCP but never answered HTTP", ("install", "start"),
                     limits=dataclasses.replace(LIMITS, start=2)),
    "start_timeout": Case({"start.sh": 'echo "listening elsewhere"\nexec sleep 60\n'},
                          "port {port} did not open within 2 s", ("install", "start"),
                          limits=dataclasses.replace(LIMITS, start=2)),
    "start_crashed": Case({"start.sh": 'echo "no database configured" >&2\nexit 3\n'},
                          "every process of the service exited before the port opened", ("install", "start")),
    "no_start_script": Case({"app.py": SERVICE, "run.sh": "exec python3 app.py\n"},
                            "no start.sh at the root, in scripts/, in bin/ or within depth 3", ("install",)),
    "install_failed": Case({"requirements.txt": "rg-leaderboard-no-such-package-4f9a2c==1.0\n",
                            "start.sh": "exec python3 app.py\n", **SERVICE_FILES},
                           "installing requirements.txt exited with 1", ("install",)),
    "missing": Case(None, "the submission has no folder named 'TodoList'", ()),
}

#: What each outcome's install or start log must hold (the submitter's own output), when it has one.
LOG_LINES = {"passed": ("start", "service listening"), "start_timeout": ("start", "listening elsewhere"),
             "start_crashed": ("start", "no database configured"),
             "install_failed": ("install", "rg-leaderboard-no-such-package-4f9a2c"),
             "no_start_script": ("install", "nothing installed")}


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())
        if rel.endswith(".sh"):
            path.chmod(0o755)
    return root


@pytest.fixture
def owner(make_user):
    """(user, team, system) of the submitting team."""
    user, _ = make_user("outcome-owner")
    team = team_for_user(user=user)
    return user, team, system_create(team=team, name="Outcome Tester")


def page_of(client, submission, user=None) -> str:
    """The submission's page as `user` (None: anonymous), as HTML."""
    client.logout()
    if user is not None:
        client.force_login(user)
    response = client.get(f"/submissions/{submission.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def task_card(html: str, task: str) -> str:
    """The per-task card of `task` on a submission page: from its id to the next card or the page's footer (a card
    holds <div>s of its own: the endpoint table's .table-wrap)."""
    start = html.index(f'<div class="card" id="task-{task}">')
    ends = [i for i in (html.find('<div class="card"', start + 1), html.find("<footer", start)) if i != -1]
    return html[start:min(ends, default=len(html))]


def assert_page_shows(html: str, *, task: str, evaluation: TaskEvaluation, detail: str, logs: tuple[str, ...],
                      member: bool, public_split: bool = True) -> None:
    """The page's row and card of `task` show the outcome, the detail, the logs (to members) and the per-test
    outcomes (public splits), as docs/scoring.md "What a submitter may see" lists them."""
    outcome = evaluation.outcome
    assert f'<span class="badge {outcome}" title="{escape(detail)}">{outcome}</span>' in html  # the Tasks table
    if outcome == "missing":  # one line for every task the archive lacks, no card of endpoints all "no"
        line = html[html.index('<div class="card" id="absent-tasks">'):]
        assert f'<span id="task-{task}">{task}</span>' in line[:line.index("</div>")]
        assert f'<div class="card" id="task-{task}">' not in html
        return
    card = task_card(html, task)
    assert f'<span class="badge {outcome}">{outcome}</span>' in card
    assert f"<p>{escape(detail)}</p>" in card
    shown_logs = {name for name in ("install", "build", "start", "test") if f"<summary>{name} log</summary>" in card}
    assert shown_logs == (set(logs) if member else set())
    for name in logs if member else ():
        assert escape(evaluation.logs[name]) in card
    cases = [c.name for c in evaluation.cases]
    shown_cases = [name for name in cases if f"<code>{escape(name)}</code>" in card]
    assert shown_cases == (cases if public_split else [])


@pytest.mark.parametrize("outcome", list(CASES))
def test_each_outcome_is_produced_and_shown_to_its_submitter(outcome, demo_split, owner, tmp_path, client):
    case = CASES[outcome]
    task = demo_split.tasks.get(name="TodoList")
    hidden = write_tree(tmp_path / "hidden", {"tests/test_service.py": case.suite.format(port=task.port)})
    repo = write_tree(tmp_path / "repo", case.repo) if case.repo is not None else None
    spec = TaskSpec(name=task.name, language="python", port=task.port, hidden_dir=hidden, tests_total=2,
                    limits=case.limits, endpoints=(("GET", "/ping"),))
    detail = case.detail.format(port=task.port)

    evaluation = evaluate_task(spec=spec, repo_src=repo, backend=sandbox_backend(), work_root=work_root(),
                               toolchain=toolchain())

    assert (evaluation.outcome, evaluation.detail) == (outcome, detail)
    assert (evaluation.tests_passed, evaluation.tests_total, evaluation.dsr) == (case.passed, 2, case.dsr)
    assert set(evaluation.logs) == set(case.logs)
    if outcome in LOG_LINES:
        name, line = LOG_LINES[outcome]
        assert line in evaluation.logs[name]
    if outcome == "tests_failed":
        assert sorted((c.name.rsplit("::", 1)[-1], c.status) for c in evaluation.cases) == [
            ("test_echo", "failed"), ("test_ping", "passed")]
    user, team, system = owner
    submission = finished_submission(split=demo_split, system_name=system.name, scores={}, team=team,
                                     evaluations={task.name: evaluation})
    assert submission.status == "finished"

    for viewer, member in ((user, True), (None, False)):
        html = page_of(client, submission, viewer)
        assert_page_shows(html, task=task.name, evaluation=evaluation, detail=detail, logs=case.logs, member=member)
    if outcome == "passed":
        assert evaluation.cases, "a passing run reports its cases: the public split shows them"
    if outcome in ("tests_failed", "tampered", "tests_timeout"):
        assert "request /echo/7" not in page_of(client, submission, user), \
            "what the service printed while the tests ran reached the page"


def test_a_java_build_that_does_not_compile_is_build_failed_with_its_log(demo_split, owner, tmp_path, client):
    task = demo_split.tasks.get(name="InventoryService")
    repo = tmp_path / "repo"
    shutil.copytree(task_reference_dir(task), repo)
    item = next(repo.rglob("Item.java"))
    item.write_text(item.read_text() + "\nthis is not java;\n")
    spec = dataclasses.replace(task_spec(task), limits=PhaseLimits(install=300, start=20, test_case=20,
                                                                   test_suite=120))

    evaluation = evaluate_task(spec=spec, repo_src=repo, backend=sandbox_backend(), work_root=work_root(),
                               toolchain=toolchain())

    assert (evaluation.outcome, evaluation.detail) == ("build_failed", "mvn test-compile exited with 1")
    assert (evaluation.dsr, evaluation.tests_passed, evaluation.tests_total) == (0, 0, task.tests_total)
    assert "Item.java" in evaluation.logs["build"] and "COMPILATION ERROR" in evaluation.logs["build"]
    user, team, system = owner
    submission = finished_submission(split=demo_split, system_name=system.name, scores={}, team=team,
                                     evaluations={task.name: evaluation})
    for viewer, member in ((user, True), (None, False)):
        assert_page_shows(page_of(client, submission, viewer), task=task.name, evaluation=evaluation,
                          detail="mvn test-compile exited with 1", logs=("build",), member=member)


def test_a_platform_fault_is_harness_error_and_the_page_asks_to_resubmit(demo_split, owner, monkeypatch, client,
                                                                         tmp_path):
    """The worker's docker backend cannot reach dockerd: every attempt is a platform fault (SandboxError); after
    MAX_ATTEMPTS the task is `harness_error`, the run fails, and the page says so without scoring anything."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from core.engine.spec import TaskEvaluation as Evaluation
    from core.sandbox.docker_backend import DockerBackend
    from evaluation import pipeline
    from evaluation.models import TaskResult
    from evaluation.services import submission_create
    from submissions.archives import zip_folders

    user, team, system = owner
    repo = write_tree(tmp_path / "repo", {**SERVICE_FILES, "start.sh": "exec python3 app.py\n"})
    submission = submission_create(system=system, split=demo_split, user=user, enqueue=False,
                                   upload=SimpleUploadedFile("s.zip", zip_folders({"TodoList": repo})))
    result_ids = pipeline.run_prepare(run_id=submission.runs.get().pk)
    todo = TaskResult.objects.get(pk__in=result_ids, task__name="TodoList")
    for other in TaskResult.objects.filter(pk__in=result_ids).exclude(pk=todo.pk).select_related("task"):
        pipeline.result_store(result=other, evaluation=Evaluation(task=other.task.name, outcome="missing", dsr=0,
                                                                  tests_passed=0, tests_total=other.task.tests_total))
    # The worker's backend (EVALUATION_BACKEND=docker) with its dockerd gone.
    monkeypatch.setattr(pipeline, "sandbox_backend",
                        lambda: DockerBackend(base_url="unix:///nonexistent/rg-test-docker.sock"))

    steps = [pipeline.result_process(result_id=todo.pk) for _ in range(pipeline.MAX_ATTEMPTS)]

    assert steps == [pipeline.Step.RETRY] * (pipeline.MAX_ATTEMPTS - 1) + [pipeline.Step.DONE]
    todo.refresh_from_db()
    submission.refresh_from_db()
    assert todo.outcome == "harness_error" and todo.detail.startswith("dockerd is not reachable")
    assert submission.status == "failed"
    error = "the platform could not evaluate every task (harness_error); please resubmit"
    assert submission.error == error
    for viewer in (user, None):
        html = page_of(client, submission, viewer)
        assert f'<p class="msg error">{escape(error)}</p>' in html
        card = task_card(html, "TodoList")
        assert '<span class="badge harness_error">harness_error</span>' in card
        assert f"<p>{escape(todo.detail)}</p>" in card
        assert '<div class="card"><h2>Scores</h2>' not in html, "a run with a platform fault is never scored"
