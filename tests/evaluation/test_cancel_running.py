"""Cancelling a submission while a worker evaluates one of its tasks (issue 13 "Lifecycle"): the worker notices
within seconds, the task's sandbox is torn down through its own teardown (no process of the sandbox users left, no
work folder), nothing is stored for the task, and the run and submission end `cancelled`.

Real sandbox (the local backend, and the docker backend against a real dockerd) and real database rows; the worker
is `pipeline.result_process` in a thread, as Celery runs it.
"""
from __future__ import annotations

import shutil
import threading
import time
import uuid
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection

from catalog.models import Split
from catalog.services import system_create, team_for_user
from evaluation import pipeline
from evaluation.models import RunStatus, TaskResult
from evaluation.services import submission_cancel, submission_create
from submissions.archives import zip_folders
from tests.conftest import import_demo
from tests.evaluation.test_evaluation_engine_runs import processes_touching
from tests.sandbox_helpers import eventually


def task_containers(client, root: Path) -> list[str]:
    """Containers of the docker backend (any state) with a folder under `root` mounted: the task's."""
    found = []
    for container in client.containers.list(all=True, filters={"label": "repogenesis.backend=docker"}):
        mounts = container.attrs.get("Mounts") or []
        if any(str(m.get("Source", "")).startswith(str(root)) for m in mounts):
            found.append(f"{container.name} ({container.status})")
    return found


@pytest.fixture(params=[pytest.param("local"), pytest.param("docker", marks=pytest.mark.docker)])
def sandbox_alive(request, monkeypatch):
    """sandbox_alive(root) -> what of the task's sandbox is running: processes of the sandbox users (local) or
    containers of the task (docker), as a list (empty: nothing). The pipeline evaluates on that backend."""
    if request.param == "local":
        return processes_touching
    backend = request.getfixturevalue("docker_backend")
    client = request.getfixturevalue("docker_client")
    monkeypatch.setattr(pipeline, "sandbox_backend", lambda: backend)
    return lambda root: task_containers(client, root)


@pytest.mark.django_db(transaction=True)  # the worker thread writes through its own connection
def test_cancelling_a_running_task_tears_its_sandbox_down_within_seconds(make_user, settings, tmp_path,
                                                                        sandbox_alive):
    settings.MEDIA_ROOT = tmp_path / "media"
    root = Path(settings.EVALUATION_WORK_ROOT) / f"test-{uuid.uuid4().hex[:8]}"
    settings.EVALUATION_WORK_ROOT = root
    import_demo()  # a transactional test starts from an emptied database on PostgreSQL
    split = Split.objects.get(benchmark__name="demo", benchmark__is_current=True, name="verified")
    user, _ = make_user("canceller")
    system = system_create(team=team_for_user(user=user), name="Slow Starter")
    repo = tmp_path / "TodoList"
    repo.mkdir()
    (repo / "start.sh").write_text("echo starting; exec sleep 600\n")  # never listens: waits out the start limit
    submission = submission_create(system=system, split=split, user=user, enqueue=False,
                                   upload=SimpleUploadedFile("slow.zip", zip_folders({"TodoList": repo})))
    run_id = submission.runs.get().pk
    result_ids = pipeline.run_prepare(run_id=run_id)
    todo = TaskResult.objects.get(run_id=run_id, task__name="TodoList")
    assert todo.pk in result_ids

    steps = []

    def worker():
        try:
            steps.append(pipeline.result_process(result_id=todo.pk))
        finally:
            connection.close()

    thread = threading.Thread(target=worker)
    thread.start()
    # The service is up (sleeping) in its sandbox: the start phase with a process of the task running.
    eventually(lambda: TaskResult.objects.get(pk=todo.pk).phase == "start" and sandbox_alive(root), 120)
    assert TaskResult.objects.get(pk=todo.pk).phase == "start"
    assert sandbox_alive(root), "the service should be running in the sandbox"

    cancelled_at = time.monotonic()
    submission_cancel(submission=submission, user=user)
    thread.join(timeout=30)
    stopped_after = time.monotonic() - cancelled_at
    print(f"the worker stopped {stopped_after:.2f} s after the cancel")

    assert not thread.is_alive() and steps == [pipeline.Step.DONE]
    assert stopped_after < pipeline.CANCEL_POLL_SECONDS + 8, f"the worker took {stopped_after:.1f} s to stop"
    assert sandbox_alive(root) == [], "a process or container of the cancelled task survived"
    assert processes_touching(root) == []
    assert not root.exists() or list(root.iterdir()) == [], "the task's work folder was not removed"
    shutil.rmtree(root, ignore_errors=True)  # the test's own roots: no litter under the shared work root
    shutil.rmtree(root.parent / "runs", ignore_errors=True)  # the pipeline's runs folder beside this test's root
    todo.refresh_from_db()
    assert (todo.status, todo.outcome) == ("pending", "")  # nothing stored for the cancelled task
    run = submission.runs.get()
    assert run.status == RunStatus.CANCELLED and run.summary is None
    submission.refresh_from_db()
    assert submission.status == "cancelled"
    assert pipeline.result_process(result_id=todo.pk) is pipeline.Step.TAKEN  # a redelivery does nothing
