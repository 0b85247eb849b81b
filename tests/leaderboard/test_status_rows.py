"""The status page of a running submission follows each task (issue 12, "Defects": the rows stayed "pending" while
the header counted tasks done): status.json gives every task's state and, once done, its numbers; the page's rows
carry the hooks static/js/submission-status.js redraws."""
from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile

from catalog.models import System, Team
from core.engine.spec import TaskEvaluation
from evaluation.models import TaskResult
from evaluation.pipeline import result_store, run_claim, run_extract
from evaluation.services import submission_create
from submissions.archives import zip_folders
from tests.factories import _tiny_repo


def running_submission(split, name: str = "Runner Agent"):
    """A public submission whose run is unpacked and evaluating: every task pending. Returns (submission, run)."""
    system = System.objects.create(team=Team.objects.get_or_create(name="runners")[0], name=name)
    upload = SimpleUploadedFile("s.zip", zip_folders({t.name: _tiny_repo(name) for t in split.tasks.all()}))
    submission = submission_create(system=system, split=split, upload=upload, user=None, enqueue=False)
    run = run_claim(run_id=submission.runs.get().pk)
    run_extract(run=run)
    return submission, run


def test_status_json_gives_each_task_its_state_and_numbers(client, demo_split):
    submission, run = running_submission(demo_split)
    run.results.filter(task__name="Notes").update(status=TaskResult.Status.RUNNING, phase="test")
    todo = run.results.select_related("task").get(task__name="TodoList")
    assert result_store(result=todo, evaluation=TaskEvaluation(task="TodoList", outcome="tests_failed", dsr=1,
                                                               tests_passed=5, tests_total=todo.task.tests_total))
    tasks = {t["task"]: t for t in client.get(f"/submissions/{submission.pk}/status.json").json()
             ["run"]["progress"]["tasks"]}
    assert tasks["Notes"]["status"] == "running" and tasks["Notes"]["phase"] == "test"
    assert tasks["Notes"]["pass_at_1"] is None and tasks["Notes"]["dsr"] is None
    done = tasks["TodoList"]
    assert (done["status"], done["outcome"], done["dsr"], done["tests_passed"]) == ("done", "tests_failed", 1, 5)
    assert done["tests_total"] == todo.task.tests_total and done["pass_at_1"] == 5 / todo.task.tests_total
    assert set(done["durations"]) == {"install", "start", "test"}
    assert tasks["Bookstore"]["status"] == "pending" and tasks["Bookstore"]["outcome"] == ""


def test_the_running_page_marks_each_row_for_the_script(client, demo_split):
    submission, run = running_submission(demo_split)
    page = client.get(f"/submissions/{submission.pk}/").content.decode()
    for name in demo_split.tasks.values_list("name", flat=True):
        assert f'<tr data-task="{name}">' in page
    for hook in ('class="t-outcome"', 'class="t-dsr"', 'class="t-tests"', 'class="t-pass"', 'id="ev-backend"'):
        assert hook in page
