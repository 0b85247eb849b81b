"""Importing RepoGenesis Verified as published (docs/benchmark-format.md): the shared copy of the release with no
manifest, with the project's manifest of facts, and from a git repository at a pinned commit (a local `file://`
repository built from the shared copy: nothing here reaches GitHub)."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from catalog.benchmark_files import BenchmarkFormatError, detect_port, read_benchmark
from catalog.models import Benchmark, Task

ROOT = Path(__file__).resolve().parents[2]
RELEASE = ROOT.parent / "shared" / "data" / "repogenesis" / "verified"
MANIFEST = ROOT / "benchmarks" / "repogenesis" / "benchmark.json"
#: The authors' ports (RepoGenesis/eval_harness/constants.py at commit c090b7d5).
AUTHORS_PORTS = {
    "Blog": 8000, "Chatroom": 8083, "Customization": 8082, "Data_Rank_Searcher": 8080,
    "django-rest-framework-crud": 8000, "eve": 5001, "File_Relay": 8085, "flask": 5000, "GameBackend": 8080,
    "mail_service": 8080, "Multilingual": 5000, "rock-paper-scissors-flask": 5000, "simple-rbac-service": 8080,
    "SimpleFastPyAPI": 8000, "StructuredDataConvertor": 8000, "synapse": 8080, "TaskManagement": 8080,
    "Tic-Tac-Toe": 8082, "Timer4Tasker": 8080, "UserManagement": 8081, "UserManagement_2": 8080, "WebPan": 8080,
    "javalin-online-judge": 7000, "javalin-task-manager": 7000, "javalin-user-auth-platform": 7070,
    "micronaut-ci-status": 8080, "quarkus-blog-cms": 8080, "spark-dashboard-backend": 4567,
    "spring-boot-course-scheduling": 8080, "springboot-chat-gateway": 8080,
}
JAVA_TASKS = {"javalin-online-judge", "javalin-task-manager", "javalin-user-auth-platform", "micronaut-ci-status",
              "quarkus-blog-cms", "spark-dashboard-backend", "spring-boot-course-scheduling",
              "springboot-chat-gateway"}
COMMIT_TASKS = ("Chatroom", "Tic-Tac-Toe", "javalin-task-manager")


@pytest.fixture(scope="module")
def release() -> Path:
    assert RELEASE.is_dir(), f"the shared copy of RepoGenesis Verified is missing at {RELEASE}"
    return RELEASE


def test_the_release_reads_with_no_manifest_with_every_port_language_and_count(release):
    source = read_benchmark(release, name="repogenesis")

    tasks = {t.name: t for t in source.tasks}
    assert len(tasks) == 30
    assert {n for n, t in tasks.items() if t.language == "java"} == JAVA_TASKS
    assert sum(t.language == "python" for t in tasks.values()) == 22
    assert {n: t.port for n, t in tasks.items()} == AUTHORS_PORTS
    assert sum(t.static_count for t in tasks.values() if t.language == "java") == 169
    assert tasks["Blog"].port_source == "README.md line 10 (a 'Port:' line): - **Listening Port**: 8000"
    assert "listens on a configurable port (default: 8080)" in tasks["springboot-chat-gateway"].port_source
    assert list(source.splits) == ["verified"] and set(source.splits["verified"]) == set(tasks)


def test_suite_kinds_and_defects_found_without_a_manifest(release):
    tasks = {t.name: t for t in read_benchmark(release).tasks}

    assert tasks["Blog"].suite_kind == "white-box"
    assert [d["kind"] for d in tasks["Blog"].defects] == ["unmapped-import"]
    assert "app" in tasks["Blog"].defects[0]["text"]
    assert tasks["simple-rbac-service"].static_count == 0
    assert [d["kind"] for d in tasks["simple-rbac-service"].defects] == ["no-tests"]
    assert tasks["Chatroom"].suite_kind == "black-box HTTP"
    assert {tasks[n].suite_kind for n in tasks if tasks[n].language == "java"} == {"in-process"}


def test_the_manifest_labels_tasks_states_defects_and_changes_the_version(release):
    bare = read_benchmark(release, name="repogenesis")
    labelled = read_benchmark(release, manifest_path=MANIFEST)

    tasks = {t.name: t for t in labelled.tasks}
    assert labelled.name == "repogenesis" and labelled.title == "RepoGenesis Verified"
    assert labelled.info["source"]["commit"] == "c090b7d57e3996c8900e86fecd16085b27e07f29"
    assert (tasks["Blog"].framework, tasks["javalin-online-judge"].framework) == ("fastapi", "javalin")
    assert tasks["Chatroom"].framework == "any" and not tasks["Chatroom"].framework_guessed
    assert [d["kind"] for d in tasks["Blog"].defects] == ["readme-gap"]  # app is declared a submission module
    assert [d["kind"] for d in tasks["flask"].defects] == ["tests-itself"]
    assert {d["kind"] for d in tasks["simple-rbac-service"].defects} == {"no-tests", "not-a-pytest-suite"}
    assert tasks["Chatroom"].reference_dir == ROOT / "benchmarks" / "repogenesis-references" / "Chatroom"
    assert {n: t.port for n, t in tasks.items()} == AUTHORS_PORTS
    assert bare.version != labelled.version  # labels and manifest facts are part of the version


@pytest.mark.parametrize("readme, port, rule", [
    ("## Service\n- Port: 8083\n", 8083, "a 'Port:' line"),
    ("- **Listening Port**: 8000\n", 8000, "a 'Port:' line"),
    ("The service listens on port `8080`.\n", 8080, "a 'listens on port' sentence"),
    ("The service listens on a configurable port (default: 8080).\n", 8080, "a 'listens on port' sentence"),
    ("Call http://localhost:9090/api to start.\n", 9090, "an example URL"),
    ("Try http://localhost:9090/x\n\n- Port: 7000\n", 7000, "a 'Port:' line"),  # a stated port beats an example
])
def test_detect_port_reads_each_phrasing_and_says_which_line(readme, port, rule):
    finding = detect_port(readme)

    assert (finding.port, finding.rule) == (port, rule)
    assert finding.text in readme


def test_a_readme_without_a_port_is_refused_with_how_to_state_it(tmp_path):
    (tmp_path / "NoPort" / "tests").mkdir(parents=True)
    (tmp_path / "NoPort" / "README.md").write_text("# A service\nIt serves things.\n")
    (tmp_path / "NoPort" / "tests" / "test_x.py").write_text("def test_x():\n    pass\n")

    with pytest.raises(BenchmarkFormatError) as info:
        read_benchmark(tmp_path)

    assert "task NoPort: no port found in README.md" in str(info.value)
    assert "- Port: 8080" in str(info.value) and "task.json" in str(info.value)


def test_a_manifest_fix_must_say_why(tmp_path, release):
    manifest = tmp_path / "m.json"
    manifest.write_text(json.dumps({"tasks": {"Chatroom": {"fixes": [{"kind": "pytest-args", "args": ["-x"]}]}}}))

    with pytest.raises(BenchmarkFormatError, match="task Chatroom: each fix needs a kind .* and a 'why'"):
        read_benchmark(release, manifest_path=manifest)


# --- from git, at a pinned commit ----------------------------------------------------------------------------
def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture(scope="module")
def git_release(release, tmp_path_factory) -> tuple[str, str]:
    """A local repository holding three tasks of the release under RepoGenesis/repo, and its commit."""
    repo = tmp_path_factory.mktemp("DKI_LLM")
    for name in COMMIT_TASKS:
        shutil.copytree(release / name, repo / "RepoGenesis" / "repo" / name)
    _git(repo, "init", "-q")
    _git(repo, "-c", "user.email=t@example.org", "-c", "user.name=t", "add", "-A")
    _git(repo, "-c", "user.email=t@example.org", "-c", "user.name=t", "commit", "-qm", "release")
    _git(repo, "config", "uploadpack.allowReachableSHA1InWant", "true")
    return f"file://{repo}", _git(repo, "rev-parse", "HEAD")


@pytest.mark.django_db
def test_import_from_a_git_url_at_a_pinned_commit(git_release, capsys):
    url, commit = git_release

    call_command("import_benchmark", url, "--commit", commit, "--subdir", "RepoGenesis/repo", "--name", "rg-git",
                 "--skip-reference-check")

    out = capsys.readouterr().out
    assert f"fetched {url} at {commit[:12]}" in out
    assert "imported rg-git version" in out and "3 tasks (2 Python, 1 Java)" in out
    assert "port from README.md line 17 (a 'listens on port' sentence): The server should listen on port `7000`." in out
    bench = Benchmark.objects.get(name="rg-git")
    assert {t.name: t.port for t in bench.tasks.all()} == {n: AUTHORS_PORTS[n] for n in COMMIT_TASKS}
    assert Task.objects.get(benchmark=bench, name="Chatroom").tests_total == 9


@pytest.mark.django_db
@pytest.mark.parametrize("change, message", [
    (lambda url, c: (url, "0" * 40, "RepoGenesis/repo"), "commit 0000000000000000000000000000000000000000 is not in"),
    (lambda url, c: (url, c, "RepoGenesis/nope"), "has no folder 'RepoGenesis/nope'"),
    (lambda url, c: ("file:///nonexistent/DKI_LLM", c, "RepoGenesis/repo"), "cannot reach file:///nonexistent/DKI_LLM"),
    (lambda url, c: (url, c[:12], "RepoGenesis/repo"), "--commit must be a full 40-hex-digit commit id"),
])
def test_a_failed_clone_says_which_step_and_stores_nothing(git_release, change, message):
    url, commit, subdir = change(*git_release)

    with pytest.raises(CommandError, match=message) as info:
        call_command("import_benchmark", url, "--commit", commit, "--subdir", subdir, "--name", "rg-bad",
                     "--skip-reference-check")

    assert "nothing was imported" in str(info.value)
    assert not Benchmark.objects.filter(name="rg-bad").exists()


def _one_task(root: Path, name: str = "Notes", readme: str = "- Port: 8080\n") -> Path:
    task = root / name
    (task / "tests").mkdir(parents=True)
    (task / "README.md").write_text(readme)
    (task / "tests" / "test_x.py").write_text("def test_x():\n    pass\n")
    return task


@pytest.mark.parametrize("break_it, message", [
    (lambda t: ((t / "README.md").unlink(), (t / "README.md").symlink_to("/etc/hostname")),
     "task Notes: Notes/README.md is a symbolic link"),
    (lambda t: (t / "tests" / "shadow.txt").symlink_to("/etc/shadow"), "Notes/tests/shadow.txt is a symbolic link"),
    (lambda t: (t / "README.md").unlink(), "task Notes: no README.md"),
    (lambda t: (t / "task.json").write_text('{"port": "eighty"}'), "task Notes: port 'eighty' is not a TCP port"),
    (lambda t: (t / "task.json").write_text('{"port": 99999}'), "task Notes: port 99999 is not a TCP port"),
    (lambda t: (t / "task.json").write_text('{"port": -1}'), "task Notes: port -1 is not a TCP port"),
    (lambda t: (t / "task.json").write_text('{"language": "cobol"}'), "language 'cobol' is not one of python, java"),
    (lambda t: (t / "README.md").write_text("- Port: 8080\n" + "x" * (1024 * 1024)), "README.md is larger than"),
    (lambda t: t.rename(t.with_name("Not\u202eEs")), "a task name is 1-200 ASCII letters"),
])
def test_a_task_folder_the_importer_cannot_trust_is_refused_with_the_fix(tmp_path, break_it, message):
    break_it(_one_task(tmp_path))

    with pytest.raises(BenchmarkFormatError, match=re.escape(message)):
        read_benchmark(tmp_path)
