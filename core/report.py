"""The per-submission report of docs/scoring.md "Report schema" (JSON) and its CSV form. Django-free."""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

from core.engine.spec import TaskEvaluation
from core.sandbox import UNSANDBOXED_WARNING
from core.grading.metrics import TaskScore, aggregate_by_language, pass_at_1, solved

SCHEMA = "scoring/v1"
CSV_FIELDS = ("submission", "system", "task", "language", "framework", "domain", "outcome", "dsr", "ac", "ac_declared", "ac_implemented",
              "tests_passed", "tests_total", "pass_at_1", "solved", "install_seconds", "start_seconds",
              "test_seconds", "reference_status", "detail", "excluded")


def evaluation_fields(evaluation: TaskEvaluation) -> dict[str, Any]:
    """The fields of one task's evaluation as they are stored and reported: outcome, dsr, ac, ac_declared,
    ac_implemented, endpoints [{"method", "path", "implemented", "evidence"}], tests_passed, tests_total (N),
    pass_at_1, solved, durations (seconds per phase), logs, cases [{"name", "status"}], detail (at most 500
    characters). The one mapping from the engine's result: the stored TaskResult row takes exactly these fields
    (evaluation.pipeline.result_store) and the offline report builds its entries from them."""
    return storable({
        "outcome": evaluation.outcome, "dsr": evaluation.dsr, "ac": evaluation.ac,
        "ac_declared": evaluation.ac_declared, "ac_implemented": evaluation.ac_implemented,
        "endpoints": [{"method": e.method, "path": e.path, "implemented": e.implemented, "evidence": e.evidence}
                      for e in evaluation.endpoints],
        "tests_passed": evaluation.tests_passed, "tests_total": evaluation.tests_total,
        "pass_at_1": evaluation.pass_at_1, "solved": evaluation.solved, "durations": evaluation.durations,
        "logs": evaluation.logs, "cases": [{"name": c.name, "status": c.status} for c in evaluation.cases],
        "detail": evaluation.detail[:500],
    })


def storable(value: Any) -> Any:
    """`value` (str, number, None, or lists, tuples and dicts of them) with every string made storable in any
    database and JSON: NUL characters and lone surrogates (a submission's output or file names, decoded with
    `replace` / `surrogateescape`) become U+FFFD. PostgreSQL refuses both in text and jsonb; a submission printing
    one byte could otherwise make its own task unstorable, hence `harness_error` and an unscored run (red team
    round 9)."""
    if isinstance(value, str):
        if "\x00" in value or any("\ud800" <= c <= "\udfff" for c in value):
            return "".join("\ufffd" if c == "\x00" or "\ud800" <= c <= "\udfff" else c for c in value)
        return value
    if isinstance(value, dict):
        return {storable(k): storable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [storable(v) for v in value]
    return value


def task_entry(*, task: str, language: str, framework: str, domain: str, outcome: str, dsr: int, ac: float | None,
               endpoints: list[dict], tests_passed: int, tests_total: int, durations: dict,
               detail: str = "", reference_status: str = "unchecked", excluded: bool = False,
               defects: list[str] | tuple[str, ...] = (), **_other_fields: Any) -> dict[str, Any]:
    """One element of the report's `tasks` list (Pass@1 and Solved from P and N by metrics.pass_at_1 / solved).

    Takes the fields of `evaluation_fields` (a stored row has the same; others such as logs are not reported).
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
        "pass_at_1": pass_at_1(passed=tests_passed, total=tests_total),
        "solved": solved(passed=tests_passed, total=tests_total),
        "durations": {k: durations.get(k) for k in ("install", "start", "test")}, "detail": detail,
        "reference_status": reference_status, "excluded": excluded, "defects": list(defects),
    }


def task_labels(task) -> dict[str, Any]:
    """What a report entry says of the task itself, from any object with a Task's fields: name, language,
    framework, domain, reference_status, is_excluded, defects [{"text", ...}]."""
    return {"task": task.name, "language": task.language, "framework": task.framework, "domain": task.domain,
            "reference_status": task.reference_status, "excluded": task.is_excluded,
            "defects": [d["text"] for d in task.defects]}


@dataclass(frozen=True)
class RunSummary:
    """The aggregates of a finished run, as stored on it and reported (docs/scoring.md "Report schema"):
    `overall` and `by_language` {language: M} hold M dicts (metrics.Aggregate.as_dict: fractions in [0, 1] with
    their 95% intervals, `tasks`, `outcomes`); `excluded` names the tasks left out of every mean (N = 0).
    The one reader of the stored JSON: use `from_json`, then `metrics(view)`."""

    overall: dict[str, Any]
    by_language: dict[str, dict[str, Any]]
    excluded: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> RunSummary | None:
        """The summary of stored JSON (`summarize`'s shape), or None for a run without one (not finished)."""
        if not data:
            return None
        return cls(overall=data["overall"], by_language=dict(data.get("by_language") or {}),
                   excluded=tuple(data.get("excluded") or ()))

    def metrics(self, view: str) -> dict[str, Any] | None:
        """M of one view: `overall`, or a language (`python`, `java`); None when the run has no task of it."""
        return self.overall if view == "overall" else self.by_language.get(view)


def summarize(tasks: list[dict]) -> dict[str, Any]:
    """{"overall": M, "by_language": {lang: M}, "excluded": [task names]} over report task entries (docs/scoring.md
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
    if evaluator.get("isolation") == "process":  # never silently: a result of code that ran without a sandbox
        evaluator = {**evaluator, "warning": UNSANDBOXED_WARNING}
    return {"schema": SCHEMA, "benchmark": benchmark, "evaluator": evaluator, "submission": submission,
            "summary": summary or summarize(tasks), "tasks": tasks}


#: First characters that make a spreadsheet read a cell as a formula (OWASP "CSV Injection").
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def csv_safe(value: Any) -> Any:
    """A CSV cell neutralised against formula injection (OWASP "CSV Injection"): a string starting with `=`, `+`,
    `-`, `@`, a tab or a carriage return gets a leading apostrophe, so a spreadsheet shows it as text. Numbers,
    None and other strings are returned unchanged (a negative number stays a number). The one neutraliser of
    every CSV the site writes: `report_csv` and the leaderboard exports (docs/exports.md)."""
    if isinstance(value, str) and value.startswith(FORMULA_TRIGGERS):
        return "'" + value
    return value


def csv_safe_row(row: dict[str, Any]) -> dict[str, Any]:
    """`csv_safe` applied to every value of one CSV row (a dict for csv.DictWriter)."""
    return {key: csv_safe(value) for key, value in row.items()}


def report_csv(report: dict) -> str:
    """One CSV row per task with the scalar fields of the report (durations in seconds); text cells neutralised
    by `csv_safe`. `excluded` is 1 for a task with no hidden test (N = 0, left out of every mean, as the report's
    `excluded: true`), else 0: the spelling of results.csv (docs/exports.md "report.csv")."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for t in report["tasks"]:
        d = t.get("durations") or {}
        writer.writerow(csv_safe_row({**t, "submission": report["submission"]["id"], "system": report["submission"]["system"], "ac": "n/a" if t["ac"] is None else f"{t['ac']:.4f}", "pass_at_1": f"{t['pass_at_1']:.4f}",
                         "install_seconds": d.get("install"), "start_seconds": d.get("start"),
                         "test_seconds": d.get("test"), "excluded": int(bool(t.get("excluded")))}))
    return out.getvalue()


def entry_from_result(result) -> dict[str, Any]:
    """task_entry() of a stored TaskResult (any object with the fields of `evaluation_fields` and a `.task`)."""
    return task_entry(**task_labels(result.task), **{name: getattr(result, name) for name in STORED_FIELDS})


def entry_from_evaluation(task, evaluation: TaskEvaluation) -> dict[str, Any]:
    """task_entry() of an engine result that was not stored (offline: manage.py evaluate)."""
    return task_entry(**task_labels(task), **evaluation_fields(evaluation))


#: The fields of `evaluation_fields`, which a stored TaskResult row has under the same names.
STORED_FIELDS = ("outcome", "dsr", "ac", "ac_declared", "ac_implemented", "endpoints", "tests_passed", "tests_total",
                 "pass_at_1", "solved", "durations", "logs", "cases", "detail")
