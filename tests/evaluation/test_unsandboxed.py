"""No submitted code runs outside a sandbox by default (issue 13, defect 10): below EVALUATION_MIN_ISOLATION
(default netns+bwrap) nothing is evaluated and the worker does not start; only an explicit opt-in, for one's own
trusted folders, runs repositories as plain processes, and every such result says so."""
from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from catalog.services import task_reference_dir
from core.sandbox import UNSANDBOXED_WARNING, IsolationTooWeak, get_backend
from evaluation import pipeline, tasks


@pytest.fixture
def no_sandbox(monkeypatch):
    """This worker's backend as on a machine without bubblewrap (isolation `process`)."""
    backend = get_backend("local", force_level="process")
    monkeypatch.setattr(pipeline, "sandbox_backend", lambda: backend)
    monkeypatch.setattr(tasks, "sandbox_backend", lambda: backend)
    from evaluation.management.commands import evaluate

    monkeypatch.setattr(evaluate, "sandbox_backend", lambda: backend)
    return backend


def test_the_default_refuses_to_run_a_repository_without_a_sandbox(no_sandbox, demo_split, tmp_path):
    task = demo_split.tasks.get(name="TodoList")
    with pytest.raises(IsolationTooWeak, match="below the required 'netns\\+bwrap'"):
        pipeline.repo_evaluate(task=task, repo=task_reference_dir(task))
    evaluation = pipeline.repo_evaluate_with_retries(task=task, repo=task_reference_dir(task))
    assert evaluation.outcome == "harness_error" and "bubblewrap" in evaluation.detail


def test_the_worker_does_not_start_without_a_sandbox(no_sandbox, db):
    with pytest.raises(SystemExit, match="refusing to start the worker"):
        tasks._refuse_without_sandbox(sender=None)


def test_the_offline_command_refuses_unless_told_and_then_warns_in_the_report(no_sandbox, demo_split, tmp_path,
                                                                               settings, capsys):
    task = demo_split.tasks.get(name="TodoList")
    folder = tmp_path / "mine"
    folder.mkdir()
    with pytest.raises(CommandError, match="--allow-unsandboxed"):
        call_command("evaluate", str(folder), "--benchmark", "demo", "--tasks", "TodoList")

    report = tmp_path / "report.json"
    call_command("evaluate", str(folder), "--benchmark", "demo", "--tasks", task.name, "--allow-unsandboxed",
                 "--json", str(report))
    data = json.loads(report.read_text())
    assert data["evaluator"]["isolation"] == "process"
    assert data["evaluator"]["warning"] == UNSANDBOXED_WARNING
    assert UNSANDBOXED_WARNING in capsys.readouterr().err
