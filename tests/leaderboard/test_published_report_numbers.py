"""The numbers a finished submission publishes, end to end: report JSON, CSV and the leaderboard API; and N, the
denominator of every Pass@1, as fixed at import and raised by a run (docs/scoring.md "Metrics per task",
"Aggregates", "Report schema").

Pinned values were computed once with core.grading.metrics.aggregate_by_language on the same per-task results (see
tests/grading/test_published_numbers.py for how): the site must publish them unchanged on every surface.
"""
from __future__ import annotations

import csv
import io
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from catalog.models import Benchmark, Split, Task
from tests.factories import finished_submission

#: A mixed submission on the demo split: {task: (P, outcome, dsr)}; N per task is the demo's (18, 15, 15, 20, 17, 20).
MIXED = {"Bookstore": (8, "tests_failed", 1), "InventoryService": (12, "tests_failed", 1),
         "Notes": (15, "passed", 1), "Tic-Tac-Toe": (18, "tests_failed", 1), "TodoList": (0, "start_crashed", 0)}
# UserManagement_2 is not in the archive: missing, 0 over its N of 20.

#: The summary it must publish (aggregate_by_language at 10,000 resamples, seed 20260101, level 0.95).
MIXED_SUMMARY = {
    "overall": {"tasks": 6, "pass_at_1": 0.524074074074074, "pass_at_1_ci": [0.2074074074074074, 0.8407407407407407],
                "solved": 0.16666666666666666, "solved_ci": [0.0, 0.5], "dsr": 0.6666666666666666,
                "dsr_ci": [0.3333333333333333, 1.0], "ac": 0.6666666666666666, "ac_ci": [0.3333333333333333, 1.0]},
    "python": {"tasks": 5, "pass_at_1": 0.4688888888888889, "pass_at_1_ci": [0.08888888888888888, 0.8488888888888889],
               "solved": 0.2, "solved_ci": [0.0, 0.6], "dsr": 0.6, "dsr_ci": [0.2, 1.0], "ac": 0.6,
               "ac_ci": [0.2, 1.0]},
    "java": {"tasks": 1, "pass_at_1": 0.8, "pass_at_1_ci": [0.8, 0.8], "solved": 0.0, "solved_ci": [0.0, 0.0],
             "dsr": 1.0, "dsr_ci": [1.0, 1.0], "ac": 1.0, "ac_ci": [1.0, 1.0]},
}
#: report.csv's per-task Pass@1 and AC strings (4 decimals; AC n/a never occurs: every demo task declares endpoints).
MIXED_CSV = {"Bookstore": ("0.4444", "1.0000", "tests_failed"), "InventoryService": ("0.8000", "1.0000", "tests_failed"),
             "Notes": ("1.0000", "1.0000", "passed"), "Tic-Tac-Toe": ("0.9000", "1.0000", "tests_failed"),
             "TodoList": ("0.0000", "0.0000", "start_crashed"), "UserManagement_2": ("0.0000", "0.0000", "missing")}


def _assert_metrics(got: dict, expected: dict, where: str) -> None:
    for name, value in expected.items():
        assert got[name] == pytest.approx(value, abs=1e-12), f"{where}: {name}"


def test_a_mixed_submission_publishes_the_pinned_summary_in_its_report(demo_split):
    sub = finished_submission(split=demo_split, system_name="Mixed", scores=MIXED)
    report = APIClient().get(f"/api/v1/submissions/{sub.pk}/report.json").json()
    summary = report["summary"]
    _assert_metrics(summary["overall"], MIXED_SUMMARY["overall"], "overall")
    assert sorted(summary["by_language"]) == ["java", "python"]
    for language in ("python", "java"):
        _assert_metrics(summary["by_language"][language], MIXED_SUMMARY[language], language)
    assert summary["overall"]["outcomes"]["missing"] == 1 and summary["overall"]["outcomes"]["start_crashed"] == 1
    assert summary["excluded"] == []
    tasks = {t["task"]: t for t in report["tasks"]}
    assert (tasks["Bookstore"]["tests_passed"], tasks["Bookstore"]["tests_total"]) == (8, 18)
    assert tasks["UserManagement_2"]["outcome"] == "missing" and tasks["UserManagement_2"]["tests_total"] == 20


def test_the_csv_report_states_each_tasks_numbers(client, demo_split):
    sub = finished_submission(split=demo_split, system_name="MixedCsv", scores=MIXED)
    rows = list(csv.DictReader(io.StringIO(client.get(f"/submissions/{sub.pk}/report.csv").content.decode())))
    assert {r["task"]: (r["pass_at_1"], r["ac"], r["outcome"]) for r in rows} == MIXED_CSV
    assert {r["task"]: (r["tests_passed"], r["tests_total"]) for r in rows}["Tic-Tac-Toe"] == ("18", "20")


@pytest.mark.parametrize("language", ["overall", "python", "java"])
def test_the_leaderboard_api_publishes_the_same_intervals(demo_split, language):
    finished_submission(split=demo_split, system_name="MixedApi", scores=MIXED)
    data = APIClient().get(f"/api/v1/leaderboard/?split=verified&language={language}").json()
    row = next(r for r in data["rows"] if r["system"] == "MixedApi")
    _assert_metrics(row, {k: v for k, v in MIXED_SUMMARY[language].items() if k != "tasks"}, language)


# --- N at import -------------------------------------------------------------------------------------------------
def _task(root: Path, name: str, files: dict[str, str]) -> None:
    (root / name / "tests").mkdir(parents=True)
    (root / name / "README.md").write_text("- Port: 8080\n\n### GET /items\n")
    for rel, text in files.items():
        (root / name / rel).write_text(text)


@pytest.fixture
def counted_benchmark(db, tmp_path):
    """A benchmark imported by the real command (pytest --collect-only on each suite) with 4 Python tasks:
    Collected: 1 test function, parametrised by a fixture into 3 cases (static count 1, collect-only 3);
    Static: test_one plus test_many parametrised by a non-literal list (static count 2, collect-only 4);
    WhiteBox: imports the submission's module, so collection fails (static count 2 only);
    NoTests: a script pytest cannot collect (N = 0: excluded)."""
    root = tmp_path / "counted"
    _task(root, "Collected", {"tests/test_a.py": (
        "import pytest\n\n@pytest.fixture(params=[1, 2, 3])\ndef n(request):\n    return request.param\n\n"
        "def test_a(n):\n    assert n\n")})
    _task(root, "Static", {"tests/test_b.py": (
        "import pytest\n\nVALUES = [1, 2, 3]\n\ndef test_one():\n    pass\n\n"
        "@pytest.mark.parametrize('v', VALUES)\ndef test_many(v):\n    pass\n")})
    _task(root, "WhiteBox", {"tests/test_c.py": (
        "from app.main import app\n\ndef test_x():\n    assert app\n\ndef test_y():\n    assert app\n")})
    _task(root, "NoTests", {"tests/check.py": "print('not a pytest suite')\n"})
    call_command("import_benchmark", str(root), "--name", "counted", "--skip-reference-check",
                 stdout=io.StringIO(), stderr=io.StringIO())
    return Benchmark.objects.get(name="counted", is_current=True)


def test_n_at_import_is_the_larger_of_collect_only_and_the_static_count(counted_benchmark):
    n = dict(Task.objects.filter(benchmark=counted_benchmark).values_list("name", "tests_total"))
    # Collected: collect-only (3) beats the static count (1); Static: collect-only 4 = 1 + 3 beats the static 2
    # (a non-literal parametrize counts 1); WhiteBox: collection fails, the static count (2) stands.
    assert n == {"Collected": 3, "Static": 4, "WhiteBox": 2, "NoTests": 0}
    tasks = {t.name: t for t in Task.objects.filter(benchmark=counted_benchmark)}
    assert tasks["NoTests"].is_excluded and not tasks["Collected"].is_excluded
    assert any(d["kind"] == "no-tests" for d in tasks["NoTests"].defects)


def test_a_task_with_n_0_is_left_out_of_every_mean(counted_benchmark):
    split = Split.objects.get(benchmark=counted_benchmark, name="verified")
    sub = finished_submission(split=split, system_name="Counted", scores={
        "Collected": (3, "passed", 1), "Static": (1, "tests_failed", 1), "WhiteBox": (1, "tests_failed", 1)})
    report = APIClient().get(f"/api/v1/submissions/{sub.pk}/report.json").json()
    overall = report["summary"]["overall"]
    assert report["summary"]["excluded"] == ["NoTests"]
    assert overall["tasks"] == 3
    assert overall["pass_at_1"] == pytest.approx((1 + 1 / 4 + 1 / 2) / 3)  # N from import: 3, 4, 2
    assert overall["solved"] == pytest.approx(1 / 3)
    assert next(t for t in report["tasks"] if t["task"] == "NoTests")["excluded"] is True


def test_a_report_with_more_cases_than_n_is_tampered_and_n_stays(tmp_path):
    """White-box: N is the task's stored N; a report holding more of a static suite's cases was not written by the
    test run alone (red team round 12: a forged report's case count was published as N). A parametrized suite may
    raise N up to the count pytest printed: tests/evaluation/test_test_run_integrity.py."""
    from core.engine.runner import TaskRun
    from core.engine.spec import TaskSpec

    run = TaskRun(spec=TaskSpec(name="T", language="python", port=8080, hidden_dir=tmp_path, tests_total=2),
                  repo_src=None, backend=None, work_root=tmp_path, toolchain=SimpleNamespace(maven_repo=None))
    s = run.sentinels
    cases = "".join(f'<testcase classname="tests.test_x" name="test_{i}"/>' for i in range(4))
    report = tmp_path / "junit.xml"
    report.write_text(f'<testsuites><testsuite name="pytest">{cases}<testcase classname="x" name="{s.must_pass}"/>'
                      f'<testcase classname="x" name="{s.must_skip}"><skipped/></testcase>'
                      '<testcase classname="tests.test_x" name="test_f"><failure/></testcase>'
                      f'<testcase classname="x" name="{s.must_skip_last}"><skipped/></testcase>'
                      '</testsuite></testsuites>')
    assert "holds 5 cases of the hidden suite, which has 2" in run._read_reports([report])
    assert run.total == 2  # N stays the task's (a tampered task scores 0: test_forged_reports)
    fewer = tmp_path / "fewer.xml"
    fewer.write_text(f'<testsuite><testcase name="test_0"/><testcase name="{s.must_pass}"/>'
                     f'<testcase name="{s.must_skip}"><skipped/></testcase></testsuite>')
    assert run._read_reports([fewer]) is None
    assert (run.passed, run.total) == (1, 2)  # a report with fewer cases never lowers N
