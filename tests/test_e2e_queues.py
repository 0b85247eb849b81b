"""End to end with the workers `make run` and `make worker` start (scripts/worker.sh: one worker for the teams'
queue, one for the background queue): an upload queued after background reference jobs starts and finishes before
they do; both workers say they are alive (the status page's "no worker" alarm); Ctrl-C stops both at once even
while a reference check runs (it used to wait for the running task: minutes).

Runs on whatever DATABASE_URL / CELERY_BROKER_URL configure (`make test-slow`: PostgreSQL + Redis).
"""
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
import requests

from tests.conftest import DEMO_SUBMISSIONS, database_url, import_demo
from tests.sandbox_helpers import eventually
from tests.test_e2e_worker import _descendants, _purge_broker

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parent.parent
RECEIVED = re.compile(r"reference_check\[[^\]]+\] received")


def _start_workers(log_path: Path, **env) -> subprocess.Popen:
    """scripts/worker.sh as a terminal starts it (a process group of its own, SIGINT not ignored), returned once
    both of its workers said ready."""
    proc = subprocess.Popen(
        [str(ROOT / "scripts" / "worker.sh")], cwd=ROOT, env={**os.environ, "DATABASE_URL": database_url(), **env},
        stdout=open(log_path, "w"), stderr=subprocess.STDOUT,
        preexec_fn=lambda: (signal.signal(signal.SIGINT, signal.SIG_DFL), os.setpgrp()))
    deadline = time.monotonic() + 90
    while not all(f"{name}@" in line and " ready." in line for name in ("worker", "background")
                  for line in [_ready_line(log_path, name)]):
        assert proc.poll() is None and time.monotonic() < deadline, log_path.read_text()[-3000:]
        time.sleep(0.3)
    return proc


def _ready_line(log_path: Path, name: str) -> str:
    return next((line for line in log_path.read_text().splitlines() if f"{name}@" in line and " ready." in line), "")


def _ctrl_c(proc: subprocess.Popen) -> float:
    """Ctrl-C as a terminal sends it (SIGINT to the foreground process group); seconds until the script exits."""
    start = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        pass
    return time.monotonic() - start


def _alive(pids: list[int]) -> list[int]:
    return [pid for pid in pids if Path(f"/proc/{pid}").exists()
            and (Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z")]


def test_an_upload_queued_after_background_work_starts_before_it_finishes(live_server, make_user, tmp_path):
    import_demo()
    from catalog.models import Task
    from evaluation.engine_setup import work_root
    from evaluation.models import EvaluationRun, TaskResult, WorkerBeat
    from evaluation.tasks import reference_check
    from submissions.archives import zip_folders

    _purge_broker()
    root = work_root()
    before = set(root.iterdir()) if root.is_dir() else set()  # another test's leftovers are its own test's failure
    log = tmp_path / "workers.log"
    # EVALUATION_STALE_SECONDS=6: the recovery sweeps every 6 s; a job waiting in its queue must not be sent again
    proc = _start_workers(log, EVALUATION_STALE_SECONDS="6")
    groups = [pid for pid in _descendants(proc.pid) if os.getpgid(pid) == pid]  # the two workers' process groups
    try:
        checked = list(Task.objects.filter(benchmark__name="demo", language="python").order_by("name")[:2])
        for task in checked:  # N = 6 background jobs: 2 reference checks of 3 runs, one evaluation per job
            reference_check.delay(task.pk, 3)
        assert eventually(lambda: RECEIVED.search(log.read_text()), 60), "the background worker took no job"

        _, token = make_user("late")
        api = requests.Session()
        api.headers["Authorization"] = f"Token {token}"
        base = f"{live_server.url}/api/v1"
        assert api.post(f"{base}/systems/", json={"name": "Late Agent", "type": "agent"}).status_code == 201
        archive = zip_folders({"TodoList": DEMO_SUBMISSIONS / "agent-alpha" / "TodoList"})
        resp = api.post(f"{base}/submissions/", data={"system": "Late Agent", "allow_missing": "true"},
                        files={"archive": ("late.zip", archive, "application/zip")})
        assert resp.status_code == 201, resp.text
        submission = resp.json()["id"]
        queued = time.monotonic()

        # Both workers say they are alive, with their queues: the status page has no "no worker" alarm.
        beats = dict(WorkerBeat.objects.values_list("hostname", "queues"))
        assert sorted(beats.values()) == [["background"], ["celery"]], beats

        run = EvaluationRun.objects.get(submission_id=submission)
        started = eventually(lambda: TaskResult.objects.filter(run=run).exclude(status="pending").exists(), 120)
        assert started, "the upload did not start"
        waited = time.monotonic() - queued
        data = None
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            data = api.get(f"{base}/submissions/{submission}/").json()
            if data["status"] in ("finished", "failed"):
                break
            time.sleep(1)
        assert data["status"] == "finished", data
        recorded = [t.name for t in Task.objects.filter(pk__in=[t.pk for t in checked]) if len(t.reference_runs) == 3]
        assert len(recorded) < len(checked), (
            f"the upload (started after {waited:.0f} s) finished only after the background work ahead of it")
        assert waited < 60, f"the upload waited {waited:.0f} s"

        # The background work goes on and is recorded whole: 3 runs per task, one job each.
        def all_checked() -> bool:
            return all(len(t.reference_runs) == 3 for t in Task.objects.filter(pk__in=[t.pk for t in checked]))

        assert eventually(all_checked, 600), log.read_text()[-3000:]
        for task in Task.objects.filter(pk__in=[t.pk for t in checked]):
            assert task.reference_status == "passed", (task.name, task.reference_detail)
        text = log.read_text()
        assert len(RECEIVED.findall(text)) == 3 * len(checked)  # one job per run
        # No job was sent twice: nothing found its result already claimed or done.
        assert "already claimed or done" not in text, text[-3000:]

        # Ctrl-C while the background worker evaluates: both workers stop within seconds, nothing is left running.
        reference_check.delay(checked[0].pk, 3)
        assert eventually(lambda: len(RECEIVED.findall(log.read_text())) > 3 * len(checked), 60)
        time.sleep(3)  # in its sandbox
        workers = _descendants(proc.pid)  # both Celery workers, their pool processes, beat, the sandbox
        assert len(groups) == 2 and len(workers) >= 5, (groups, workers)
        seconds = _ctrl_c(proc)
        assert proc.returncode is not None and seconds < 20, f"still running {seconds:.0f} s after Ctrl-C"
        assert eventually(lambda: not _alive(workers), 5), _alive(workers)
        assert not WorkerBeat.objects.exists()  # they said they were gone
        # ... and the sandbox of the evaluation cut off is gone: no task folder, nothing mounted under the work root
        # (a fresh-user pass could not delete its clone after Ctrl-C: a tmpfs and two Maven overlays were left)
        left = sorted(set(root.iterdir()) - before)
        assert not left, [(str(p), sorted(c.name for c in p.iterdir()) if p.is_dir() else None) for p in left]
        assert not [line for line in Path("/proc/self/mountinfo").read_text().splitlines()
                    if f" {root}/" in line], "a mount is left under the work root"
    finally:  # whatever happened, no worker of this test outlives it (one would take the next test's jobs)
        for group in [proc.pid, *groups]:
            try:
                os.killpg(group, signal.SIGKILL)
            except ProcessLookupError:
                pass
