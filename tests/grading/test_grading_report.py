"""The per-submission report (core/report.py, docs/scoring.md "Report schema"): what a submitter downloads as JSON and
CSV, pinned field by field without a database. Each comment names the mutation of core/report.py the assertion
catches (`make mutate MUTANTS='core.report.*'`, docs/mutation.md)."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from core.engine import spec
from core.engine.spec import EndpointEvidence, TaskEvaluation
from core.report import (CSV_FIELDS, SCHEMA, RunSummary, build_report, csv_safe, csv_safe_row, entry_from_evaluation,
                         entry_from_result, evaluation_fields, report_csv, storable, summarize, task_entry)
from core.sandbox import UNSANDBOXED_WARNING


def a_task(name="TodoList", language="python", **fields):
    """An object with a catalog Task's fields (what task_labels reads): the report needs no database."""
    values = dict(name=name, language=language, framework="flask", domain="productivity",
                  reference_status="passed", is_excluded=False, defects=[{"text": "README port differs", "id": 3}])
    values.update(fields)
    return SimpleNamespace(**values)


def an_evaluation(**fields):
    values = dict(task="TodoList", outcome="tests_failed", dsr=1, tests_passed=3, tests_total=4,
                  endpoints=(EndpointEvidence("GET", "/todos", True, "200 application/json"),
                             EndpointEvidence("DELETE", "/todos/{param}", False, "404 on every try")),
                  durations={"install": 12.5, "start": 1.25, "test": 30.0, "teardown": 0.5},
                  logs={"install": "Successfully installed flask"}, cases=(spec.TestCaseResult("test_list", "passed"),
                                                                          spec.TestCaseResult("test_delete", "failed")),
                  detail="1 of 4 hidden tests failed")
    values.update(fields)
    return TaskEvaluation(**values)


def test_the_stored_fields_of_an_evaluation_are_pinned():
    # Any key renamed, dropped or given another value (every `"outcome": evaluation.outcome` pair, the endpoint and case
    # lists) changes what the TaskResult row stores.
    assert evaluation_fields(an_evaluation()) == {
        "outcome": "tests_failed", "dsr": 1, "ac": 0.5, "ac_declared": 2, "ac_implemented": 1,
        "endpoints": [{"method": "GET", "path": "/todos", "implemented": True, "evidence": "200 application/json"},
                      {"method": "DELETE", "path": "/todos/{param}", "implemented": False,
                       "evidence": "404 on every try"}],
        "tests_passed": 3, "tests_total": 4, "pass_at_1": 0.75, "solved": 0,
        "durations": {"install": 12.5, "start": 1.25, "test": 30.0, "teardown": 0.5},
        "logs": {"install": "Successfully installed flask"},
        "cases": [{"name": "test_list", "status": "passed"}, {"name": "test_delete", "status": "failed"}],
        "detail": "1 of 4 hidden tests failed",
    }


def test_the_stored_detail_is_cut_at_500_characters():
    # `detail[:500]` made `[:501]` or dropped: a long detail no longer fits its documented length.
    assert evaluation_fields(an_evaluation(detail="x" * 499 + "yz"))["detail"] == "x" * 499 + "y"


@pytest.mark.parametrize("text, stored", [
    ("a\x00b", "a\ufffdb"),  # NUL
    ("a\ud800b", "a\ufffdb"),  # the first surrogate (`<=` made `<` at the low end)
    ("a\udfffb", "a\ufffdb"),  # the last surrogate (`<=` made `<` at the high end)
    ("a\ud7ffb\ue000", "a\ud7ffb\ue000"),  # the characters either side of the surrogates are kept
    ("NUL only at the end\x00", "NUL only at the end\ufffd"),
])
def test_storable_replaces_exactly_nul_and_lone_surrogates(text, stored):
    # The range or the NUL test changed in the check or the replacement: PostgreSQL refuses the row (harness_error).
    assert storable(text) == stored


def test_storable_walks_dicts_lists_and_tuples_and_keeps_other_values():
    # A container no longer walked (keys or values), a tuple kept as a tuple, or a number changed.
    assert storable({"k\x00": ("v\x00", [1, 2.5, None, True]), "n": 7}) == {
        "k\ufffd": ["v\ufffd", [1, 2.5, None, True]], "n": 7}


def entry(**fields):
    values = dict(task="TodoList", language="python", framework="flask", domain="productivity",
                  outcome="tests_failed", dsr=1, ac=0.5,
                  endpoints=[{"method": "GET", "path": "/todos", "implemented": True, "evidence": "200"},
                             {"method": "DELETE", "path": "/todos/{param}", "implemented": False, "evidence": "404"}],
                  tests_passed=3, tests_total=4, durations={"install": 12.5, "start": 1.25, "test": 30.0})
    values.update(fields)
    return task_entry(**values)


def test_a_report_entry_with_the_defaults():
    # Every key of the entry and each default (detail "", reference_status "unchecked", not excluded, no defects).
    assert entry() == {
        "task": "TodoList", "language": "python", "framework": "flask", "domain": "productivity",
        "outcome": "tests_failed", "dsr": 1, "ac": 0.5, "ac_declared": 2, "ac_implemented": 1,
        "endpoints": [{"method": "GET", "path": "/todos", "evidence": "200"},
                      {"method": "DELETE", "path": "/todos/{param}", "evidence": "404"}],
        "tests_passed": 3, "tests_total": 4, "pass_at_1": 0.75, "solved": 0,
        "durations": {"install": 12.5, "start": 1.25, "test": 30.0}, "detail": "",
        "reference_status": "unchecked", "excluded": False, "defects": [],
    }


def test_a_report_entry_keeps_three_durations_and_reports_a_missing_one_as_null():
    # A duration key renamed in the kept set, or the teardown kept: the report's durations object changes.
    assert entry(durations={"install": 1.0, "test": 2.0, "teardown": 0.5})["durations"] == {
        "install": 1.0, "start": None, "test": 2.0}


def test_a_report_entry_solved_and_its_labels():
    # solved/pass_at_1 computed from other counts, or detail/reference_status/excluded/defects not passed through.
    e = entry(tests_passed=4, outcome="passed", detail="all passed", reference_status="flaky", excluded=True,
              defects=("port differs",), ac=None, endpoints=[])
    assert (e["pass_at_1"], e["solved"], e["ac"], e["ac_declared"], e["ac_implemented"]) == (1.0, 1, None, 0, 0)
    assert (e["detail"], e["reference_status"], e["excluded"], e["defects"]) == ("all passed", "flaky", True,
                                                                               ["port differs"])


def test_an_offline_entry_carries_the_tasks_labels():
    # task_labels reading another attribute (or none) for a label, or defects not reduced to their text.
    e = entry_from_evaluation(a_task(reference_status="flaky", is_excluded=True), an_evaluation())
    assert {k: e[k] for k in ("task", "language", "framework", "domain", "reference_status", "excluded", "defects")} == {
        "task": "TodoList", "language": "python", "framework": "flask", "domain": "productivity",
        "reference_status": "flaky", "excluded": True, "defects": ["README port differs"]}
    assert (e["tests_passed"], e["tests_total"], e["ac"], e["detail"]) == (3, 4, 0.5, "1 of 4 hidden tests failed")


def test_an_entry_of_a_stored_row_equals_the_entry_of_its_evaluation():
    # entry_from_result reading other fields than the stored ones (STORED_FIELDS) or another task.
    evaluation = an_evaluation()
    row = SimpleNamespace(task=a_task(), **evaluation_fields(evaluation))
    assert entry_from_result(row) == entry_from_evaluation(a_task(), evaluation)
    assert entry_from_result(row)["endpoints"][1] == {"method": "DELETE", "path": "/todos/{param}",
                                                      "evidence": "404 on every try"}


def scored(task, language, outcome, dsr, ac, passed, total, excluded=False):
    return entry(task=task, language=language, outcome=outcome, dsr=dsr, ac=ac, tests_passed=passed,
                 tests_total=total, excluded=excluded)


MIXED = [scored("C", "java", "start_crashed", 0, 0.0, 0, 5), scored("A", "python", "tests_failed", 1, 0.5, 3, 4),
         scored("D", "python", "passed", 1, 1.0, 0, 0, excluded=True), scored("B", "python", "passed", 1, None, 4, 4)]


def test_the_summary_of_a_mixed_run():
    # A field of TaskScore fed from another entry key, the excluded task counted, a language missing or the
    # excluded list not sorted: the published point estimates and counts change.
    summary = summarize(MIXED)
    overall, python, java = summary["overall"], summary["by_language"]["python"], summary["by_language"]["java"]
    assert set(summary) == {"overall", "by_language", "excluded"} and set(summary["by_language"]) == {"python", "java"}
    assert (overall["tasks"], overall["pass_at_1"], overall["solved"], overall["dsr"], overall["ac"]) == pytest.approx(
        (3, (0.75 + 1.0 + 0.0) / 3, 1 / 3, 2 / 3, 0.25))
    assert (python["tasks"], python["pass_at_1"], python["solved"], python["dsr"], python["ac"]) == (2, 0.875, 0.5, 1.0, 0.5)
    assert (java["tasks"], java["pass_at_1"], java["dsr"], java["ac"]) == (1, 0.0, 0.0, 0.0)
    assert overall["outcomes"]["start_crashed"] == 1 and overall["outcomes"]["passed"] == 1
    assert summary["excluded"] == ["D"]
    assert summarize(list(reversed(MIXED)))["excluded"] == ["D"]
    assert summarize(MIXED + [scored("Aa", "java", "passed", 1, 1.0, 0, 0, excluded=True)])["excluded"] == ["Aa", "D"]


def test_a_summary_with_nothing_scorable_is_refused():
    # The excluded filter inverted or dropped would score the N = 0 task instead of refusing.
    with pytest.raises(ValueError):
        summarize([scored("D", "python", "passed", 1, 1.0, 0, 0, excluded=True)])


def test_the_stored_summary_reads_back():
    # from_json's `not data`, its defaults for a summary without languages or exclusions, and metrics(view).
    assert RunSummary.from_json(None) is None and RunSummary.from_json({}) is None
    stored = summarize(MIXED)
    summary = RunSummary.from_json(stored)
    assert summary.metrics("overall") == stored["overall"]
    assert summary.metrics("python") == stored["by_language"]["python"]
    assert summary.metrics("rust") is None
    assert summary.excluded == ("D",)
    bare = RunSummary.from_json({"overall": stored["overall"], "by_language": None})
    assert (bare.by_language, bare.excluded, bare.metrics("java")) == ({}, (), None)
    assert RunSummary.from_json({"overall": stored["overall"]}).by_language == {}


BENCHMARK = {"name": "demo", "version": "abc"}
SUBMISSION = {"id": 7, "system": "=HYPERLINK(\"http://x\")"}


def test_the_report_lists_tasks_by_name_and_computes_the_summary():
    # The sort dropped or keyed on another field; `summary or summarize(...)` made `and`; a key renamed.
    report = build_report(benchmark=BENCHMARK, evaluator={"isolation": "bwrap"}, submission=SUBMISSION, tasks=MIXED)
    assert list(report) == ["schema", "benchmark", "evaluator", "submission", "summary", "tasks"]
    assert report["schema"] == SCHEMA == "scoring/v1"
    assert (report["benchmark"], report["evaluator"], report["submission"]) == (BENCHMARK, {"isolation": "bwrap"},
                                                                                 SUBMISSION)
    assert [t["task"] for t in report["tasks"]] == ["A", "B", "C", "D"]
    assert report["summary"] == summarize(MIXED)


def test_a_stored_summary_is_reported_as_stored():
    # `summary or summarize(tasks)` inverted: the run's own stored summary replaced by a recomputed one.
    stored = {"overall": {"tasks": 99}, "by_language": {}, "excluded": []}
    report = build_report(benchmark=BENCHMARK, evaluator={}, submission=SUBMISSION, tasks=MIXED, summary=stored)
    assert report["summary"] == stored


def test_an_unsandboxed_run_says_so_in_the_report():
    # The `isolation == "process"` check inverted or its warning key renamed: a run of code without a sandbox
    # would be reported silently (or every sandboxed one warned).
    report = build_report(benchmark=BENCHMARK, evaluator={"isolation": "process", "backend": "local"},
                          submission=SUBMISSION, tasks=MIXED)
    assert report["evaluator"] == {"isolation": "process", "backend": "local", "warning": UNSANDBOXED_WARNING}
    sandboxed = build_report(benchmark=BENCHMARK, evaluator={"isolation": "bwrap"}, submission=SUBMISSION, tasks=MIXED)
    assert "warning" not in sandboxed["evaluator"]


@pytest.mark.parametrize("cell", ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"])
def test_csv_safe_neutralises_every_formula_trigger(cell):
    # The apostrophe changed or the trigger test inverted: a spreadsheet runs the submitter's formula.
    assert csv_safe(cell) == "'" + cell


@pytest.mark.parametrize("value", ["plain", "a=b", "", -1, -0.5, None, 0])
def test_csv_safe_keeps_other_values(value):
    # `isinstance(value, str) and` made `or` (numbers would crash or be quoted), or every string quoted.
    assert csv_safe(value) == value


def test_csv_safe_row_neutralises_every_value():
    assert csv_safe_row({"system": "=cmd", "task": "Todo", "dsr": -1}) == {"system": "'=cmd", "task": "Todo", "dsr": -1}


def test_the_report_csv_is_pinned():
    # Any column renamed or reformatted (the 4-decimal Pass@1 and AC, "n/a" for a task without endpoints, the
    # durations in seconds, the submission id and system), the header, the line ending, or a cell not neutralised.
    entries = [entry(task="TodoList", detail="-crashed"), entry(task="Blog", language="java", framework="spring",
               domain="blog", ac=None, endpoints=[], tests_passed=2, tests_total=3, durations={})]
    report = build_report(benchmark=BENCHMARK, evaluator={}, submission=SUBMISSION, tasks=entries)
    assert report_csv(report) == (
        ",".join(CSV_FIELDS) + "\n"
        + '7,"\'=HYPERLINK(""http://x"")",Blog,java,spring,blog,tests_failed,1,n/a,0,0,2,3,0.6667,0,,,,unchecked,,0\n'
        + '7,"\'=HYPERLINK(""http://x"")",TodoList,python,flask,productivity,tests_failed,1,0.5000,2,1,3,4,0.7500,0,'
          "12.5,1.25,30.0,unchecked,'-crashed,0\n"
    )
    assert CSV_FIELDS == ("submission", "system", "task", "language", "framework", "domain", "outcome", "dsr", "ac",
                          "ac_declared", "ac_implemented", "tests_passed", "tests_total", "pass_at_1", "solved",
                          "install_seconds", "start_seconds", "test_seconds", "reference_status", "detail", "excluded")


def test_the_report_csv_of_an_entry_without_durations():
    # `t.get("durations") or {}` made `and`: a stored entry with null durations would crash the download.
    entries = [dict(entry(task="Blog"), durations=None)]
    report = build_report(benchmark=BENCHMARK, evaluator={}, submission={"id": 1, "system": "S"}, tasks=entries)
    assert report_csv(report).splitlines()[1] == "1,S,Blog,python,flask,productivity,tests_failed,1,0.5000,2,1,3,4,0.7500,0,,,,unchecked,,0"
