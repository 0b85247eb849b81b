"""Benchmark upgrades: old results are marked "scored on an older version" and can be re-scored."""
import shutil

from django.core.management import call_command

from evaluation.models import EvaluationRun
from evaluation.services import submission_rescore
from catalog.models import Benchmark, Split
from leaderboard.selectors import leaderboard_rows
from tests.conftest import DEMO
from tests.factories import finished_submission


def _import_changed_copy(tmp_path) -> Benchmark:
    copy = tmp_path / "demo"
    shutil.copytree(DEMO, copy, ignore=shutil.ignore_patterns("reference"))
    test = copy / "TodoList" / "tests" / "test_todos.py"
    test.write_text(test.read_text() + "\n# a changed hidden suite makes a new benchmark version\n")
    call_command("import_benchmark", str(copy), "--name", "demo", "--skip-reference-check",
                 stdout=open("/dev/null", "w"))
    return Benchmark.objects.get(name="demo", is_current=True)


def test_reimporting_an_unchanged_folder_keeps_the_version(demo_split):
    call_command("import_benchmark", str(DEMO), "--skip-reference-check", stdout=open("/dev/null", "w"))
    assert Benchmark.objects.filter(name="demo").count() == 1


def test_upgrade_marks_old_rows_and_rescoring_queues_a_run_on_the_new_version(demo_split, tmp_path):
    sub = finished_submission(split=demo_split, system_name="Veteran", scores={"TodoList": (17, "passed", 1)})
    new = _import_changed_copy(tmp_path)
    assert new.version != demo_split.benchmark.version
    new_split = Split.objects.get(benchmark=new, name="verified")

    rows = leaderboard_rows(split=new_split, language="overall")
    assert [r.system.name for r in rows] == ["Veteran"]
    assert rows[0].run.is_outdated and rows[0].as_dict()["outdated"] is True

    run = submission_rescore(submission=sub)
    assert run.split == new_split and run.benchmark == new and run.status == "queued"
    assert run.results.count() == 6
    assert EvaluationRun.objects.filter(submission=sub).count() == 2
    sub.refresh_from_db()
    assert sub.status == "queued"


def test_flagged_reference_is_shown_on_the_task_page(client, demo_split):
    task = demo_split.tasks.get(name="Notes")
    task.reference_status, task.reference_detail = "flaky", "2 of 3 runs passed"
    task.save()
    html = client.get("/tasks/Notes/").content.decode()
    assert "flakes on its own suite" in html and "2 of 3 runs passed" in html
