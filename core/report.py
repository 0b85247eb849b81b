"""The per-submission report of SCORING.md "Report schema" (JSON) and its CSV form. Django-free."""
from __future__ import annotations

import csv
import io
from typing import Any

from core.grading.metrics import TaskScore, aggregate_by_language

SCHEMA = "scoring/v1"
CSV_FIELDS = ("submission", "system", "task", "language", "framework", "domain", "outcome", "dsr", "ac", "ac_declared", "ac_implemented",
              "tests_passed", "tests_total", "pass_at_1", "solved", "install_seconds", "start_seconds",
              "test_seconds", "reference_status", "detail")


def task_entry(*, task: str, language: str, framework: str, domain: str, outcome: str, dsr: int, ac: float | None,
               endpoints: list[dict], tests_passed: int, tests_total: int, durations: dict,
               detail: str = "", reference_status: str = "unchecked", excluded: bool = False,
               defects: list[str] | tuple[str, ...] = ()) -> dict[str, Any]:
    """One element of the report's `tasks` list (Pass@1 and Solved derived from P and N).

    `reference_status` (passed/flaky/failed/none/unchecked) flags tasks whose reference solution does
    not pass its own suite reliably: their scores deserve less trust. `excluded`: the task has no hidden test
    (N = 0 at import) and is left out of every mean (docs/scoring.md "Metrics per task"); `defects` are the task's
    defect notes, stated in the report.
    """
    return {
        "task": task, "language": language, "framework": framework, "domain": domain, "outcome": outcome,
        "dsr": dsr, "ac": ac, "ac_declared": len(endpoints), "ac_implemented": sum(1 for e in endpoints if e["implemented"]),
        "endpoints": [{"method": e["method"], "path": e["path"], "evidence": e["evidence"]} for e in endpoints],
        "tests_passed": tests_passed, "tests_total": tests_total,
        "pass_at_1": tests_passed / tests_total if tests_total else 0.0,
        "solved": int(tests_total > 0 and tests_passed == tests_total),
        "durations": {k: durations.get(k) for k in ("install", "start", "test")}, "detail": detail,
        "reference_status": reference_status, "excluded": excluded, "defects": list(defects),
    }


def summarize(tasks: list[dict]) -> dict[str, Any]:
    """{"overall": M, "by_language": {lang: M}, "excluded": [task names]} over report task entries (SCORING.md
    "Aggregates"); entries marked `excluded` (N = 0) are left out of every mean and listed instead.
    Raises ValueError when no entry can be scored."""
    scores = [TaskScore(task=t["task"], language=t["language"], outcome=t["outcome"], dsr=t["dsr"], ac=t["ac"],
                        tests_passed=t["tests_passed"], tests_total=t["tests_total"], pass_at_1=t["pass_at_1"],
                        solved=t["solved"]) for t in tasks if not t.get("excluded")]
    grouped = aggregate_by_language(scores)
    return {"overall": grouped["overall"].as_dict(),
            "by_language": {lang: agg.as_dict() for lang, agg in grouped["by_language"].items()},
            "excluded": sorted(t["task"] for t in tasks if t.get("excluded"))}


def build_report(*, benchmark: dict, evaluator: dict, submission: dict, tasks: list[dict],
                 summary: dict | None = None) -> dict[str, Any]:
    """The whole report; `summary` is computed from `tasks` when not given (a stored run passes its own)."""
    tasks = sorted(tasks, key=lambda t: t["task"])
    return {"schema": SCHEMA, "benchmark": benchmark, "evaluator": evaluator, "submission": submission,
            "summary": summary or summarize(tasks), "tasks": tasks}


def report_csv(report: dict) -> str:
    """One CSV row per task with the scalar fields of the report (durations in seconds)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for t in report["tasks"]:
        d = t.get("durations") or {}
        writer.writerow({**t, "submission": report["submission"]["id"], "system": report["submission"]["system"], "ac": "n/a" if t["ac"] is None else f"{t['ac']:.4f}", "pass_at_1": f"{t['pass_at_1']:.4f}",
                         "install_seconds": d.get("install"), "start_seconds": d.get("start"),
                         "test_seconds": d.get("test")})
    return out.getvalue()


def entry_from_result(result) -> dict[str, Any]:
    """task_entry() of a stored TaskResult (any object with its fields and a `.task` with the task's labels)."""
    t = result.task
    return task_entry(task=t.name, language=t.language, framework=t.framework, domain=t.domain,
                      outcome=result.outcome, dsr=result.dsr, ac=result.ac, endpoints=result.endpoints,
                      tests_passed=result.tests_passed, tests_total=result.tests_total, durations=result.durations,
                      detail=result.detail, reference_status=t.reference_status, excluded=t.is_excluded,
                      defects=[d["text"] for d in t.defects])
