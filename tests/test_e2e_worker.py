"""End to end with a real Celery worker process (not eager): API upload → evaluation → leaderboard JSON.

Runs on whatever DATABASE_URL / CELERY_BROKER_URL configure: `make test-slow` runs it on SQLite + the
filesystem transport and again on PostgreSQL + Redis.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
from django.conf import settings

from core.sandbox import get_backend, netns
from tests.conftest import DEMO_SUBMISSIONS, database_url, import_demo
from tests.sandbox_helpers import eventually

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parent.parent


def _start_worker(log_path: Path, *, beat: bool = False, **env) -> subprocess.Popen:
    """A `celery worker` subprocess (with the embedded beat scheduler when `beat`, as `make run` and `make worker`
    start it), returned once its log says ready."""
    log = open(log_path, "a+")
    proc = subprocess.Popen(
        [str(Path(sys.executable).with_name("celery")), "-A", "config", "worker", "--concurrency=2", "--loglevel=INFO",
         "--without-gossip", "--without-mingle", "--without-heartbeat", *(["--beat"] if beat else [])],
        cwd=ROOT, env={**os.environ, "DATABASE_URL": database_url(), **env}, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True)
    deadline = time.monotonic() + 60
    while log_path.read_text().count("ready.") < 1 + getattr(_start_worker, "started", {}).get(log_path, 0):
        assert proc.poll() is None and time.monotonic() < deadline, log_path.read_text()
        time.sleep(0.3)
    _start_worker.started = {**getattr(_start_worker, "started", {}), log_path: log_path.read_text().count("ready.")}
    return proc


def _stop(proc: subprocess.Popen, sig=signal.SIGTERM) -> None:
    try:
        os.killpg(proc.pid, sig)
        proc.wait(timeout=30)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(proc.pid, signal.SIGKILL)


@pytest.fixture
def worker(tmp_path):
    """A real `celery worker` process on the test database and the configured broker."""
    _purge_broker()
    proc = _start_worker(tmp_path / "worker.log")
    yield proc
    _stop(proc)


def _descendants(pid: int) -> list[int]:
    """Every process below `pid` (from /proc's parent links)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, frontier = [], [pid]
    while frontier:
        current = frontier.pop()
        children = [p for p, parent in parents.items() if parent == current]
        found += children
        frontier += children
    return found


def _is_sandboxed(pid: int) -> bool:
    """A process of the sandbox (bubblewrap, or one running as a leased sandbox user), not a platform helper
    such as the worker's own `uv` wheel pre-install, which finishes by itself."""
    import pwd

    try:
        comm = Path(f"/proc/{pid}/comm").read_text().strip()
        user = pwd.getpwuid(Path(f"/proc/{pid}").stat().st_uid).pw_name
    except (OSError, KeyError):
        return False
    return comm == "bwrap" or user.startswith("rg-")


def _purge_broker() -> None:
    """Nothing an earlier test left on the broker reaches the next workers: every queue, and on Redis also the
    messages a killed worker held unacknowledged (kombu keeps them in the `unacked` hash and gives them back to
    the queue when the next worker starts: `celery purge` does not remove them). The test's own Redis database
    only (`CELERY_BROKER_URL`)."""
    if settings.CELERY_BROKER_URL.startswith("filesystem://"):
        folder = Path(settings.VAR_DIR) / "broker" / "queue"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
    else:
        import redis

        redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()


def _wait_finished(session, url: str, timeout: float = 300) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        data = session.get(url).json()
        if data["status"] in ("finished", "failed"):
            return data
        time.sleep(1)
    raise AssertionError(f"not finished after {timeout} s: {data}")


def test_upload_to_leaderboard_with_a_real_worker(live_server, worker, make_user, demo_zip, tmp_path):
    import_demo()
    _, token = make_user("e2e")
    s = requests.Session()
    s.headers["Authorization"] = f"Token {token}"
    api = f"{live_server.url}/api/v1"
    assert s.post(f"{api}/systems/", json={"name": "E2E Alpha", "base_model": "m", "type": "agent"}).status_code == 201
    resp = s.post(f"{api}/submissions/", data={"system": "E2E Alpha"},
                  files={"archive": ("alpha.zip", demo_zip("agent-alpha"), "application/zip")})
    assert resp.status_code == 201, resp.text
    sub = _wait_finished(s, f"{api}/submissions/{resp.json()['id']}/")
    assert sub["status"] == "finished", sub
    assert sub["run"]["evaluator"]["isolation"]

    expected = json.loads((DEMO_SUBMISSIONS / "EXPECTED.json").read_text())["agent-alpha"]
    expected.update(json.loads((DEMO_SUBMISSIONS / "EXPECTED-java.json").read_text())["agent-alpha"])
    report = s.get(f"{api}/submissions/{sub['id']}/report.json").json()
    got = {t["task"]: (t["tests_passed"], t["tests_total"]) for t in report["tasks"]}
    assert got == {name: (e["passed"], e["total"]) for name, e in expected.items()}

    board = s.get(f"{api}/leaderboard/?split=verified&language=overall").json()
    row = next(r for r in board["rows"] if r["system"] == "E2E Alpha")
    mean = sum(e["passed"] / e["total"] for e in expected.values()) / len(expected)
    assert row["pass_at_1"] == pytest.approx(mean)
    assert row["dsr"] == 1.0 and row["rank"] == 1

    # A message delivered twice does not evaluate twice.
    from evaluation.models import TaskResult
    from evaluation.tasks import result_run, run_prepare

    first = TaskResult.objects.filter(run_id=sub["run"]["id"]).order_by("pk").first()
    log = tmp_path / "worker.log"
    said = log.read_text().count(f"result {first.pk} already claimed or done")
    run_prepare.delay(sub["run"]["id"])
    result_run.delay(first.pk)
    # The worker took both messages and said it had nothing to do.
    assert eventually(lambda: log.read_text().count(f"result {first.pk} already claimed or done") > said, 30), \
        log.read_text()[-2000:]
    again = TaskResult.objects.get(pk=first.pk)
    assert (again.attempts, again.finished_at) == (first.attempts, first.finished_at)


def test_bad_archive_fails_cleanly_in_the_worker_not_the_site(live_server, worker, make_user):
    """An archive that passes the upload check but cannot be unpacked ends `failed` with the reason."""
    import_demo()
    from django.core.files.uploadedfile import SimpleUploadedFile

    from catalog.models import Split, System
    from submissions.archives import zip_folders
    from evaluation.services import submission_create

    user, _ = make_user("e2e2")
    system = System.objects.create(team=user.teams.get(), name="Shrinking")
    split = Split.objects.get(benchmark__name="demo", benchmark__is_current=True, name="verified")
    sub = submission_create(system=system, split=split, user=user, enqueue=False,
                            upload=SimpleUploadedFile("a.zip", zip_folders({"TodoList": DEMO_SUBMISSIONS / "agent-alpha" / "TodoList"})))
    Path(sub.archive.path).write_bytes(b"corrupted after upload")
    from evaluation.tasks import run_prepare

    run_prepare.delay(sub.runs.get().pk)
    data = _wait_finished(requests.Session(), f"{live_server.url}/api/v1/submissions/{sub.pk}/", timeout=60)
    assert data["status"] == "failed" and "archive" in data["error"]


def test_a_killed_worker_loses_no_task_and_scores_none_twice(live_server, make_user, demo_zip, tmp_path):
    """SIGKILL the worker mid-evaluation; a new worker recovers the abandoned tasks from their stale heartbeats."""
    import_demo()
    from evaluation.models import TaskResult
    from catalog.models import Split, System
    from evaluation.services import submission_create
    from django.core.files.uploadedfile import SimpleUploadedFile

    _purge_broker()
    user, _ = make_user("e2e3")
    system = System.objects.create(team=user.teams.get(), name="Survivor")
    split = Split.objects.get(benchmark__name="demo", benchmark__is_current=True, name="verified")
    log = tmp_path / "worker.log"
    namespaces_before = set(netns.leftovers())
    first = _start_worker(log, EVALUATION_STALE_SECONDS="6")
    sub = submission_create(system=system, split=split, user=user,
                            upload=SimpleUploadedFile("a.zip", demo_zip("agent-alpha")))
    deadline = time.monotonic() + 60
    isolated = get_backend("local").isolation.startswith("netns")
    # Kill mid-evaluation: a result claimed and (where there are namespaces) its sandbox already open; a result is
    # claimed a moment before its namespace exists, so waiting for the claim alone raced the kill.
    while not (TaskResult.objects.filter(run__submission=sub, status="running").exists()
               and (not isolated or set(netns.leftovers()) - namespaces_before)):
        assert time.monotonic() < deadline
        time.sleep(0.2)
    sandboxed = [pid for pid in _descendants(first.pid) if _is_sandboxed(pid)]
    killed_namespaces = set(netns.leftovers()) - namespaces_before
    _stop(first, signal.SIGKILL)
    eventually(lambda: not [pid for pid in sandboxed if Path(f"/proc/{pid}").exists()], 2)
    assert [pid for pid in sandboxed if Path(f"/proc/{pid}").exists()] == [], "sandboxed processes outlived the worker"
    killed = set(TaskResult.objects.filter(run__submission=sub, status="running").values_list("pk", flat=True))
    assert killed
    # Let the heartbeats go stale: the run's and its running results' last beats older than 7 s (stale after 6).
    from django.utils import timezone

    from evaluation.models import EvaluationRun

    def stale() -> bool:
        beats = [*TaskResult.objects.filter(pk__in=killed).values_list("heartbeat", flat=True),
                 *EvaluationRun.objects.filter(submission=sub).values_list("heartbeat", flat=True)]
        return all(b is None or (timezone.now() - b).total_seconds() > 7 for b in beats)

    assert eventually(stale, 30), "the killed worker's heartbeats kept coming"
    # Started like production, with beat: a task message the killed worker had prefetched but not yet claimed is
    # gone with it on the filesystem transport, and only the periodic recovery finds its result once the run
    # goes quiet (the recovery at start sees the run still progressing).
    second = _start_worker(log, beat=True, EVALUATION_STALE_SECONDS="6")
    try:
        data = _wait_finished(requests.Session(), f"{live_server.url}/api/v1/submissions/{sub.pk}/", timeout=300)
    finally:
        _stop(second)
    assert data["status"] == "finished", data
    # Its namespaces are swept at the second worker's start (their owner is gone), not 30 min later.
    assert killed_namespaces or not isolated
    assert not killed_namespaces & set(netns.leftovers()), "the dead worker's namespaces stay"
    results = TaskResult.objects.filter(run__submission=sub)
    assert all(r.status == "done" and r.outcome != "harness_error" for r in results)
    assert {r.pk for r in results if r.attempts == 2} == killed
    expected = json.loads((DEMO_SUBMISSIONS / "EXPECTED.json").read_text())["agent-alpha"]
    for r in results.select_related("task"):
        if r.task.name in expected:
            assert r.tests_passed == expected[r.task.name]["passed"], r.task.name
    # The killed worker's task folders (size-capped tmpfs mounts) were swept by the new worker.
    from core.engine import workspace

    work_root = Path(settings.EVALUATION_WORK_ROOT)
    abandoned = [p for p in work_root.iterdir() if p.is_dir() and workspace.abandoned(p, older_than=1e9)]
    assert abandoned == []
