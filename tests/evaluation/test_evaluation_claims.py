"""Claiming runs and results exactly once (a message delivered twice does nothing) and unpacking a run.

Real database rows made with the services (submission_create without enqueueing), no sandbox run.
"""
from __future__ import annotations

import io
import zipfile
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from evaluation.models import EvaluationRun, RunStatus, TaskResult
from evaluation.pipeline import result_claim, run_claim, run_extract
from catalog.services import system_create, team_for_user
from submissions.models import Submission
from evaluation.services import submission_create
from submissions.services import SubmissionError


@pytest.fixture
def private_dirs(settings, tmp_path):
    """Uploads and extracted runs go to this test's temporary folder."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.EVALUATION_WORK_ROOT = tmp_path / "work"
    return tmp_path


@pytest.fixture
def submit(make_user, demo_split, private_dirs):
    """submit(bytes, name) -> a queued Submission (not enqueued) of the demo split."""
    user, _ = make_user("claimer")
    system = system_create(team=team_for_user(user=user), name="Claim Tester")

    def make(data: bytes, name: str = "submission.zip") -> Submission:
        upload = SimpleUploadedFile(name, data, content_type="application/zip")
        return submission_create(system=system, split=demo_split, upload=upload, user=user, enqueue=False)

    return make


@pytest.fixture
def alpha_run(submit, demo_zip):
    submission = submit(demo_zip("agent-alpha"), "agent-alpha.zip")
    return submission.runs.get()


def test_run_is_claimed_only_once(alpha_run):
    first = run_claim(run_id=alpha_run.pk)
    second = run_claim(run_id=alpha_run.pk)

    assert first is not None and first.status == RunStatus.RUNNING
    assert second is None
    alpha_run.refresh_from_db()
    assert alpha_run.attempts == 1
    assert alpha_run.submission.status == Submission.Status.RUNNING


def test_extracting_a_run_unpacks_every_task_folder_and_lists_its_results(alpha_run, demo_split):
    run = run_claim(run_id=alpha_run.pk)

    result_ids = run_extract(run=run)

    run.refresh_from_db()
    assert sorted(result_ids) == sorted(run.results.values_list("pk", flat=True))
    assert len(result_ids) == demo_split.tasks.count()
    extracted = {p.name for p in Path(run.extracted_dir).iterdir()}
    assert extracted == set(demo_split.tasks.values_list("name", flat=True))
    assert run.backend == "local" and run.isolation
    assert run.evaluator_version


def test_result_is_claimed_only_once(alpha_run):
    run = run_claim(run_id=alpha_run.pk)
    result_id = run_extract(run=run)[0]

    first = result_claim(result_id=result_id)
    second = result_claim(result_id=result_id)

    assert first is not None and first.status == TaskResult.Status.RUNNING
    assert second is None
    assert TaskResult.objects.get(pk=result_id).attempts == 1


def test_result_of_a_run_that_is_not_running_cannot_be_claimed(alpha_run):
    result = alpha_run.results.first()  # the run is still queued

    assert result_claim(result_id=result.pk) is None
    assert TaskResult.objects.get(pk=result.pk).status == TaskResult.Status.PENDING


def test_done_result_is_never_claimed_again(alpha_run):
    run = run_claim(run_id=alpha_run.pk)
    result_id = run_extract(run=run)[0]
    result_claim(result_id=result_id)
    TaskResult.objects.filter(pk=result_id).update(status=TaskResult.Status.DONE,
                                                   heartbeat=timezone.now() - timedelta(days=1))

    assert result_claim(result_id=result_id, stale_after=60) is None


def test_result_whose_worker_died_is_claimed_again(alpha_run):
    run = run_claim(run_id=alpha_run.pk)
    result_id = run_extract(run=run)[0]
    result_claim(result_id=result_id)
    TaskResult.objects.filter(pk=result_id).update(heartbeat=timezone.now() - timedelta(hours=1))

    again = result_claim(result_id=result_id, stale_after=60)

    assert again is not None
    assert again.attempts == 2
    assert result_claim(result_id=result_id, stale_after=60) is None  # fresh heartbeat now


def _zip(entries: list[tuple[str, bytes]], compression: int = zipfile.ZIP_STORED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as zf:
        for name, data in entries:
            zf.writestr(name, data)
    return buffer.getvalue()


def test_archive_with_a_file_and_a_folder_of_the_same_name_is_refused_at_upload(submit):
    with pytest.raises(SubmissionError, match="both as a file and as a folder"):
        submit(_zip([("TodoList/start.sh", b"echo"), ("TodoList/app", b"file"), ("TodoList/app/main.py", b"inside")]))

    assert not Submission.objects.exists()


def _damaged_zip() -> bytes:
    """A zip whose member list is intact and whose start.sh's compressed bytes are garbage."""
    data = bytearray(_zip([("TodoList/start.sh", b"echo hello world\n" * 200), ("TodoList/app.py", b"x")],
                          compression=zipfile.ZIP_DEFLATED))
    start = data.index(b"TodoList/start.sh") + len("TodoList/start.sh") + 10
    data[start:start + 20] = bytes(b ^ 0xFF for b in data[start:start + 20])
    return bytes(data)


def test_an_archive_with_a_damaged_member_is_refused_at_upload(submit):
    """The upload check reads every member's data (the content digest of the duplicate rule), so a member whose
    bytes are garbage is refused at once, with the reason, before anything is stored."""
    with pytest.raises(SubmissionError, match="damaged"):
        submit(_damaged_zip())
    assert not Submission.objects.exists()


def test_a_stored_archive_damaged_after_its_upload_fails_the_run_with_a_reason(submit):
    """A stored archive damaged after its upload was checked (the storage's fault) fails its run with a reason: it
    is not the archive whose sha256 the upload recorded."""
    submission = submit(_zip([("TodoList/start.sh", b"echo hello world\n" * 200), ("TodoList/app.py", b"x")],
                             compression=zipfile.ZIP_DEFLATED))
    with submission.archive.open("wb") as stored:
        stored.write(_damaged_zip())
    run = run_claim(run_id=submission.runs.get().pk)

    result_ids = run_extract(run=run)

    assert result_ids == []
    run.refresh_from_db()
    submission.refresh_from_db()
    assert run.status == RunStatus.FAILED and "not the one uploaded" in run.error
    assert submission.status == Submission.Status.FAILED and "not the one uploaded" in submission.error


def test_unknown_folders_are_reported_as_layout_warnings(submit):
    submission = submit(_zip([("TodoList/start.sh", b"echo"), ("Todolist/start.sh", b"echo")]))
    run = run_claim(run_id=submission.runs.get().pk)

    run_extract(run=run)

    submission.refresh_from_db()
    assert submission.layout_warnings == [
        "5 tasks missing (each scores 0): Bookstore, InventoryService, Notes, Tic-Tac-Toe, UserManagement_2",
        "folder 'Todolist' matches no task of the split and is ignored"]
    assert EvaluationRun.objects.get(pk=run.pk).phase == "tasks"


def test_a_folder_differing_only_in_case_gets_a_case_hint(submit):
    submission = submit(_zip([("Notes/start.sh", b"echo"), ("todolist/start.sh", b"echo")]))

    assert submission.layout_warnings == [
        "5 tasks missing (each scores 0): Bookstore, InventoryService, Tic-Tac-Toe, TodoList, UserManagement_2",
        "folder 'todolist' is not task 'TodoList': task names are case-sensitive, so 'TodoList' scores 0 as missing"]


@pytest.mark.parametrize("fault", ["sandbox", "unexpected"])
@pytest.mark.django_db(transaction=True)  # the pool thread writes through its own connection
def test_an_inline_run_retries_a_platform_fault_like_the_worker(make_user, private_dirs, demo_zip, monkeypatch, fault):
    """The in-process loop shares `pipeline.result_process` with Celery: a fault of the platform's sandbox
    (SandboxError) releases the result and it is evaluated again, MAX_ATTEMPTS times in all; only then is it
    `harness_error` (the run fails). Any other exception of the platform's code (such as the shutil.Error of red
    team round 8, which left the result running for the recovery to send again forever) would fail the same way
    again: it is `harness_error` at once, after one attempt, its detail naming the exception's kind and no host path
    (red team round 13: an OSError raised by a tree the submission shaped cost three full builds and showed the
    worker's absolute work path)."""
    import shutil

    from core.engine.spec import TaskEvaluation
    from core.sandbox import SandboxError
    from evaluation import pipeline

    error = SandboxError if fault == "sandbox" else shutil.Error

    faults = {"TodoList": 1, "InventoryService": pipeline.MAX_ATTEMPTS}  # one recovers, one never does
    calls: dict[str, int] = {}

    def flaky_platform(*, task, repo, on_phase=None, harvest_maven=False, watch=None):
        calls[task.name] = calls.get(task.name, 0) + 1
        if calls[task.name] <= faults.get(task.name, 0):
            raise error("the sandbox could not be created" if fault == "sandbox" else
                        "[Errno 28] No space left: '/srv/rg/var/work/0123456789/repo/target/x'")
        return TaskEvaluation(task=task.name, outcome="tests_failed", dsr=1, tests_passed=0,
                              tests_total=task.tests_total, detail="stub")

    monkeypatch.setattr(pipeline, "repo_evaluate", flaky_platform)
    monkeypatch.setattr(pipeline, "RETRY_DELAY_SECONDS", 0)
    from catalog.models import Split
    from tests.conftest import import_demo

    import_demo()  # a transactional test starts from an emptied database on PostgreSQL
    split = Split.objects.get(benchmark__name="demo", benchmark__is_current=True, name="verified")
    user, _ = make_user("retrier")
    system = system_create(team=team_for_user(user=user), name="Retry Tester")
    submission = submission_create(system=system, split=split, user=user, enqueue=False,
                                   upload=SimpleUploadedFile("a.zip", demo_zip("agent-alpha")))

    run = pipeline.run_execute_inline(run_id=submission.runs.get().pk, concurrency=1)

    results = {r.task.name: r for r in run.results.select_related("task")}
    if fault == "sandbox":
        assert calls["TodoList"] == 2 and results["TodoList"].outcome == "tests_failed"
        assert results["TodoList"].attempts == 2
        assert calls["InventoryService"] == pipeline.MAX_ATTEMPTS
    else:  # not retried: the code that failed would fail again
        assert calls["TodoList"] == 1 and results["TodoList"].outcome == "harness_error"
        assert calls["InventoryService"] == 1
        assert results["InventoryService"].detail == "the evaluator failed (Error); please resubmit"
    assert results["InventoryService"].outcome == "harness_error"
    assert "/srv/" not in results["InventoryService"].detail
    assert run.status == RunStatus.FAILED and "harness_error" in run.error
    assert all(calls[name] == 1 for name in results if name not in faults)
