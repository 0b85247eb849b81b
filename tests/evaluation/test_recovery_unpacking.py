"""A run whose worker died while unpacking its archive (SIGKILLed, or its database connection lost between the claim
and the unpacked folder being recorded) is unpacked again by the recovery and scored from the archive: its tasks are
never evaluated against a folder that was not unpacked (which scored every task `missing`, a finished submission
with a wrong score). Real sandbox, real database rows; the recovery is `pipeline.stale_work`, as
`evaluation.tasks.runs_recover` runs it, and the messages it sends are processed as a worker would."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from catalog.models import Split
from catalog.services import system_create, team_for_user
from evaluation import pipeline
from evaluation.models import EvaluationRun, RunPhase, RunStatus, TaskResult
from evaluation.services import submission_create
from submissions.archives import zip_folders
from submissions.quota import quota_status
from tests.conftest import DEMO_SUBMISSIONS, import_demo


pytestmark = pytest.mark.django_db(transaction=True)  # the heartbeat thread writes through its own connection


@pytest.fixture
def unpacking_run(make_user, settings, tmp_path):
    """A TodoList-only submission whose run a worker claimed and then died before unpacking (heartbeat stale)."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.EVALUATION_WORK_ROOT = tmp_path / "work"
    import_demo()  # a transactional test starts from an emptied database on PostgreSQL
    demo_split = Split.objects.get(benchmark__name="demo", benchmark__is_current=True, name="verified")
    user, _ = make_user("unpacker")
    system = system_create(team=team_for_user(user=user), name="Unpacked Twice")
    archive = zip_folders({"TodoList": DEMO_SUBMISSIONS / "agent-alpha" / "TodoList"})
    submission = submission_create(system=system, split=demo_split, user=user, enqueue=False,
                                   upload=SimpleUploadedFile("todo.zip", archive))
    run = submission.runs.get()
    assert pipeline.run_claim(run_id=run.pk) is not None  # claimed: running, phase extract ... then the worker died
    EvaluationRun.objects.filter(pk=run.pk).update(heartbeat=timezone.now() - timedelta(hours=1))
    return submission, run


def _recover_and_work(stale_after: float = 60) -> tuple[list[int], list[int]]:
    """One recovery sweep, then every message it sends processed as a worker would (results after runs)."""
    runs, results = pipeline.stale_work(stale_after=stale_after)
    for run_id in runs:
        results = [*results, *(pipeline.run_prepare(run_id=run_id) or ())]
    for result_id in results:
        while pipeline.result_process(result_id=result_id) is pipeline.Step.RETRY:
            pass
    return runs, results


def test_a_run_whose_worker_died_while_unpacking_is_unpacked_again_and_scored_from_its_archive(unpacking_run):
    submission, run = unpacking_run

    runs, _ = _recover_and_work()

    assert runs == [run.pk]
    todo = TaskResult.objects.get(run=run, task__name="TodoList")
    assert (todo.outcome, todo.tests_passed, todo.tests_total) == ("tests_failed", 14, 17)  # as a quiet run scores it
    run.refresh_from_db()
    submission.refresh_from_db()
    assert (run.status, run.attempts, submission.status) == (RunStatus.FINISHED, 2, "finished")
    assert run.summary["overall"]["pass_at_1"] > 0  # scored, not every task missing


def test_the_results_of_a_run_still_unpacking_cannot_be_claimed(unpacking_run):
    """A result message of such a run (a redelivery, or one sent by an older recovery) finds nothing to claim."""
    _, run = unpacking_run
    todo = TaskResult.objects.get(run=run, task__name="TodoList")

    assert pipeline.result_process(result_id=todo.pk) is pipeline.Step.TAKEN
    todo.refresh_from_db()
    assert (todo.status, todo.outcome, todo.attempts) == ("pending", "", 0)


def test_a_run_that_never_unpacks_fails_after_its_attempts_and_frees_the_quota(unpacking_run):
    submission, run = unpacking_run
    EvaluationRun.objects.filter(pk=run.pk).update(attempts=pipeline.MAX_ATTEMPTS)

    runs, results = _recover_and_work()

    assert (runs, results) == ([], [])
    run.refresh_from_db()
    submission.refresh_from_db()
    assert run.status == RunStatus.FAILED and run.phase == RunPhase.EXTRACT
    assert submission.status == "failed" and "could not unpack this submission" in submission.error
    assert not TaskResult.objects.filter(run=run).exclude(outcome="").exists()  # nothing scored
    assert quota_status(team=submission.system.team).used == 0


def test_a_task_that_kills_its_worker_every_time_ends_harness_error_not_a_loop(unpacking_run):
    """Red team round 8: a task whose evaluation dies with its worker (a crash, a kill, memory) was put back to pending
    by every recovery sweep, forever. After MAX_ATTEMPTS claims it is `harness_error` and the run fails."""
    submission, run = unpacking_run
    runs, _ = pipeline.stale_work(stale_after=60)  # the dead unpacking: queued again, then unpacked
    assert runs == [run.pk] and pipeline.run_prepare(run_id=run.pk)
    result = run.results.get(task__name="TodoList")
    for attempt in range(1, pipeline.MAX_ATTEMPTS + 1):
        assert pipeline.result_claim(result_id=result.pk) is not None  # claimed ... and the worker died
        TaskResult.objects.filter(pk=result.pk).update(heartbeat=timezone.now() - timedelta(hours=1))
        EvaluationRun.objects.filter(pk=run.pk).update(heartbeat=timezone.now() - timedelta(hours=1))
        _, sent = pipeline.stale_work(stale_after=60)
        assert (result.pk in sent) == (attempt < pipeline.MAX_ATTEMPTS)

    result.refresh_from_db()
    assert (result.status, result.outcome) == (TaskResult.Status.DONE, "harness_error")
    assert "worker died" in result.detail
    for other in run.results.exclude(pk=result.pk):  # the tasks the submission lacks: scored missing
        assert pipeline.result_process(result_id=other.pk) is pipeline.Step.DONE
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED and "harness_error" in run.error


def test_a_worker_that_outlived_its_claim_stores_nothing(unpacking_run):
    """A worker paused past the stale time (its task claimed again by another worker) must not store its evaluation
    over the new claim's: a task is scored once, by the claim that holds it."""
    from core.engine.spec import TaskEvaluation

    submission, run = unpacking_run
    pipeline.stale_work(stale_after=60)
    assert pipeline.run_prepare(run_id=run.pk)
    result_id = run.results.get(task__name="TodoList").pk
    first = pipeline.result_claim(result_id=result_id)
    TaskResult.objects.filter(pk=result_id).update(heartbeat=timezone.now() - timedelta(hours=1))
    second = pipeline.result_claim(result_id=result_id, stale_after=60)
    assert (first.attempts, second.attempts) == (1, 2)

    late = TaskEvaluation(task="TodoList", outcome="tests_failed", dsr=1, tests_passed=3, tests_total=17)
    assert pipeline.result_store(result=first, evaluation=late) is False
    assert TaskResult.objects.get(pk=result_id).status == TaskResult.Status.RUNNING

    own = TaskEvaluation(task="TodoList", outcome="tests_failed", dsr=1, tests_passed=14, tests_total=17)
    assert pipeline.result_store(result=second, evaluation=own) is True
    stored = TaskResult.objects.get(pk=result_id)
    assert (stored.status, stored.tests_passed, stored.attempts) == (TaskResult.Status.DONE, 14, 2)
