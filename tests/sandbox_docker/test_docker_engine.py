"""The engine end to end with the docker backend: demo references evaluated in containers of a real dockerd
(install through the egress proxy with a warm uv cache, service and hidden suite in their own containers)."""
from __future__ import annotations

import pytest

from core.engine.runner import evaluate_task
from evaluation.engine_setup import task_spec, toolchain, work_root
from core.sandbox import get_backend
from core.sandbox.docker_backend import LABEL_BACKEND, LABEL_WORKER
from catalog.services import task_reference_dir

pytestmark = pytest.mark.docker


def evaluate_in_docker(task, docker_client):
    """evaluate_task with the docker backend; returns (evaluation, phases, containers seen during the tests)."""
    backend = get_backend("docker")
    mine = {"label": [f"{LABEL_BACKEND}=docker", f"{LABEL_WORKER}={backend.worker}"]}
    phases, during_tests = [], []

    def on_phase(phase: str) -> None:
        phases.append(phase)
        if phase == "test":
            during_tests.extend(c.labels["repogenesis.role"] for c in docker_client.containers.list(filters=mine))

    result = evaluate_task(spec=task_spec(task), repo_src=task_reference_dir(task), backend=backend,
                           work_root=work_root(), toolchain=toolchain(), on_phase=on_phase)
    assert docker_client.containers.list(all=True, filters=mine) == [], "containers survived the evaluation"
    return result, phases, during_tests


def test_todolist_reference_passes_17_of_17_in_docker(demo_split, dockerd, docker_client):
    task = demo_split.tasks.get(name="TodoList")

    result, phases, during_tests = evaluate_in_docker(task, docker_client)

    assert result.outcome == "passed", (result.detail, result.logs)
    assert (result.tests_passed, result.tests_total) == (17, 17)
    assert result.dsr == 1
    assert {e.evidence for e in result.endpoints} == {"probe"}
    assert len(result.cases) == 17 and {c.status for c in result.cases} == {"passed"}
    assert "flask" in result.logs["install"].lower()
    assert phases == ["materialize", "install", "start", "probe", "test", "teardown"]
    assert sorted(during_tests) == ["net", "service"]  # installs are gone; the runner comes next


def test_java_reference_builds_and_passes_in_docker(demo_split, dockerd, docker_client):
    task = demo_split.tasks.get(name="InventoryService")

    result, _, _ = evaluate_in_docker(task, docker_client)

    assert result.outcome == "passed", (result.detail, result.logs)
    assert result.tests_passed == result.tests_total > 0
    assert result.dsr == 1
