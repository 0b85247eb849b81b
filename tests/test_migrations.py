"""An existing database keeps its data through the move of the catalog models out of `leaderboard` (catalog 0001).

The database is migrated back to the last schema before the move, filled through the historical models, and
migrated forward again; every row and relation must read back through today's models.
"""
from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE_THE_MOVE = [("leaderboard", "0006_system_type_reference"), ("submissions", "0002_agent_endpoints"),
                   ("evaluation", "0003_run_split"), ("catalog", None)]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state([t for t in targets if t[1]]).apps


def _latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def _fill(apps) -> dict:
    user = apps.get_model("auth", "User").objects.create(username="old-user")
    team = apps.get_model("leaderboard", "Team").objects.create(name="Old team")
    team.members.add(user)
    system = apps.get_model("leaderboard", "System").objects.create(team=team, name="Old system", type="agent")
    benchmark = apps.get_model("leaderboard", "Benchmark").objects.create(name="old", version="a" * 64,
                                                                          storage_dir="/nowhere")
    task = apps.get_model("leaderboard", "Task").objects.create(benchmark=benchmark, name="OldTask", language="python",
                                                                port=8000, readme="# Old", tests_total=4)
    split = apps.get_model("leaderboard", "Split").objects.create(benchmark=benchmark, name="verified")
    split.tasks.add(task)
    submission = apps.get_model("submissions", "Submission").objects.create(
        system=system, split=split, token="t" * 24, archive="submissions/1/x.zip", archive_name="x.zip",
        archive_sha256="0" * 64, status="finished")
    run = apps.get_model("evaluation", "EvaluationRun").objects.create(submission=submission, benchmark=benchmark,
                                                                       split=split, status="finished")
    apps.get_model("evaluation", "TaskResult").objects.create(run=run, task=task, status="done", outcome="passed",
                                                              tests_passed=4, tests_total=4, pass_at_1=1.0, solved=1)
    apps.get_model("submissions", "GenerationCall").objects.create(submission=submission, task=task)
    apps.get_model("leaderboard", "ReportedResult").objects.create(
        benchmark_name="old", split_name="verified", system="Published", source="paper", source_date="2026-01-01")
    return {"user": user.pk, "submission": submission.pk}


@pytest.mark.django_db(transaction=True)
def test_an_old_database_keeps_its_rows_and_relations():
    latest = _latest()
    old_apps = _migrate(BEFORE_THE_MOVE)
    ContentType.objects.clear_cache()
    ContentType.objects.get_or_create(app_label="leaderboard", model="task")  # as the old site had made it
    ids = _fill(old_apps)
    _migrate(latest)
    ContentType.objects.clear_cache()

    from catalog.models import ReportedResult, Split, System, Team
    from evaluation.models import TaskResult
    from submissions.models import GenerationCall, Submission

    submission = Submission.objects.get(pk=ids["submission"])
    assert submission.system == System.objects.get(name="Old system")
    assert list(Team.objects.get(name="Old team").members.values_list("pk", flat=True)) == [ids["user"]]
    split = Split.objects.get(name="verified", benchmark__name="old")
    assert [t.name for t in split.tasks.all()] == ["OldTask"]
    result = TaskResult.objects.get(run__submission=submission)
    assert (result.task.name, result.task.benchmark.name, result.pass_at_1) == ("OldTask", "old", 1.0)
    assert GenerationCall.objects.get(submission=submission).task == result.task
    assert ReportedResult.objects.get().system == "Published"
    assert ContentType.objects.get_for_model(result.task).app_label == "catalog"
    assert not ContentType.objects.filter(app_label="leaderboard", model="task").exists()
