"""Java builds from Maven Central, safely (docs/scoring.md "The run of one task", install phase): each task builds
into its own Maven repository (an overlay over the platform's), online through the allow-listing proxy only. The two attacks (an
artifact planted for the next submission, a pom reaching for another repository) run on both backends.

Real sandbox, real Maven, real Maven Central (reached through the proxy): marked slow (and docker).
"""
from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from core.engine.runner import evaluate_task
from evaluation.engine_setup import sandbox_backend, task_spec, toolchain, work_root
from catalog.services import task_reference_dir

pytestmark = pytest.mark.slow
GSON = Path("com/google/code/gson/gson/2.11.0/gson-2.11.0.jar")


@pytest.fixture(params=[pytest.param("local"), pytest.param("docker", marks=pytest.mark.docker)])
def evaluate(request):
    """evaluate(task, repo) on the local backend or the docker one."""
    backend = sandbox_backend() if request.param == "local" else request.getfixturevalue("docker_backend")
    return lambda task, repo: evaluate_task(spec=task_spec(task), repo_src=repo, backend=backend,
                                            work_root=work_root(), toolchain=toolchain())


@pytest.fixture
def inventory(demo_split, tmp_path):
    """The demo's Java task and a writable copy of its reference solution."""
    task = demo_split.tasks.get(name="InventoryService")
    repo = tmp_path / "InventoryService"
    shutil.copytree(task_reference_dir(task), repo)
    return task, repo


def _edit_pom(repo: Path, old: str, new: str) -> None:
    pom = repo / "pom.xml"
    text = pom.read_text()
    assert old in text
    pom.write_text(text.replace(old, new, 1))


def test_an_unresolvable_version_fails_the_build_with_mavens_line(inventory):
    task, repo = inventory
    _edit_pom(repo, "<gson.version>2.11.0</gson.version>", "<gson.version>2.11.0-not-served</gson.version>")

    result = evaluate_task(spec=task_spec(task), repo_src=repo, backend=sandbox_backend(), work_root=work_root(),
                           toolchain=toolchain())

    assert result.outcome == "build_failed", result.detail
    assert "com.google.code.gson:gson:jar:2.11.0-not-served" in result.logs["build"]
    assert result.dsr == 0 and result.tests_passed == 0


def test_a_repository_other_than_maven_central_is_not_reached(inventory, evaluate):
    task, repo = inventory
    _edit_pom(repo, "<dependencies>", """<repositories><repository><id>elsewhere</id>
        <url>https://maven.elsewhere.example.org/releases</url></repository></repositories>
      <dependencies><dependency><groupId>org.example.elsewhere</groupId><artifactId>payload</artifactId>
        <version>1.0</version></dependency>""")

    result = evaluate(task, repo)

    assert result.outcome == "build_failed", result.detail
    assert "org.example.elsewhere:payload" in result.logs["build"]
    assert "maven.elsewhere.example.org" in result.logs["build"]


def test_an_artifact_planted_by_one_submission_never_reaches_the_next(inventory, evaluate):
    task, repo = inventory
    platform = toolchain().maven_repo
    before = hashlib.sha256((platform / GSON).read_bytes()).hexdigest()
    # The service (same user and mounts as the build) plants a poisoned org.junit artifact and truncates Gson in
    # the Maven repository it was given.
    start = repo / "start.sh"
    start.write_text(start.read_text().replace("exec java", """m2="${MAVEN_OPTS#-Dmaven.repo.local=}"; m2="${m2%% *}"
mkdir -p "$m2/org/junit/poison/1.0" && echo POISON > "$m2/org/junit/poison/1.0/poison-1.0.jar"
: > "$m2/com/google/code/gson/gson/2.11.0/gson-2.11.0.jar" && echo "planted in $m2"
exec java""", 1))

    attacker = evaluate(task, repo)
    honest = evaluate(task, task_reference_dir(task))

    assert "planted in" in attacker.logs["start"]
    assert not (platform / "org/junit/poison").exists()
    assert hashlib.sha256((platform / GSON).read_bytes()).hexdigest() == before
    assert honest.outcome == "passed", honest.detail
    assert (honest.tests_passed, honest.tests_total) == (15, 15)
