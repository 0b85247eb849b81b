"""`manage.py evaluate PATH --benchmark demo [--split S] [--benchmark-version SHA] [--tasks A,B] [--json FILE]
[--csv FILE]`.

Offline evaluation of a folder (one sub-folder per task) or an archive, like the paper's harness.
Exit 0 whatever the scores; non-zero only when the evaluation itself could not run.
"""
import json
from contextlib import nullcontext
import tempfile
import time
from pathlib import Path

from django.test.utils import override_settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from core.engine import EVALUATOR_VERSION
from core.engine.archive import ArchiveError, extract_archive
from evaluation.engine_setup import environment_stamp, sandbox_backend
from core.report import build_report, entry_from_evaluation, report_csv
from core.sandbox import UNSANDBOXED_WARNING, IsolationTooWeak
from evaluation.pipeline import folder_evaluate, isolation_check
from submissions.services import archive_limits
from catalog.selectors import NotFound, split_get, split_tasks


class Command(BaseCommand):
    help = "Evaluate a folder or archive of generated repositories against a benchmark split, offline."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path, help="folder with one sub-folder per task, or a .zip/.tar.gz")
        parser.add_argument("--benchmark", default=None)
        parser.add_argument("--split", default=None)
        parser.add_argument("--tasks", default="", help="comma-separated task names (default: all of the split)")
        parser.add_argument("--json", type=Path, help="write the report JSON here")
        parser.add_argument("--csv", type=Path, help="write the report CSV here")
        parser.add_argument("--concurrency", type=int, default=None)
        parser.add_argument("--allow-unsandboxed", action="store_true",
                            help="run the repositories without a sandbox when this machine has none (your own "
                                 "trusted folders only; the report says so)")
        parser.add_argument("--benchmark-version", default="",
                            help="refuse to run unless the imported benchmark version (sha256) starts with this "
                                 "(the version a leaderboard row was scored on: its report page states it)")

    def handle(self, *args, **opts):
        allow = override_settings(EVALUATION_ALLOW_UNSANDBOXED=True) if opts["allow_unsandboxed"] else nullcontext()
        with allow:
            self._evaluate(opts)

    def _evaluate(self, opts) -> None:
        try:
            isolation_check()
        except IsolationTooWeak as exc:
            raise CommandError(str(exc)) from exc
        if sandbox_backend().isolation == "process":
            self.stderr.write(f"WARNING: {UNSANDBOXED_WARNING}")
        try:
            split = split_get(benchmark=opts["benchmark"], split=opts["split"])
        except NotFound as exc:
            raise CommandError(str(exc)) from exc
        wanted_version = opts.get("benchmark_version") or ""
        if wanted_version and not split.benchmark.version.startswith(wanted_version):
            raise CommandError(f"benchmark {split.benchmark.name!r} is imported at version "
                               f"{split.benchmark.version[:12]}, not {wanted_version[:12]}: import the version "
                               f"the row was scored on (manage.py import_benchmark) to reproduce it")
        tasks = list(split_tasks(split=split))
        if opts["tasks"]:
            wanted = [t.strip() for t in opts["tasks"].split(",") if t.strip()]
            unknown = sorted(set(wanted) - {t.name for t in tasks})
            if unknown:
                raise CommandError(f"unknown tasks for {split}: {', '.join(unknown)}")
            tasks = [t for t in tasks if t.name in wanted]
        with tempfile.TemporaryDirectory(prefix="rg-evaluate-") as tmp:
            root = self._materialize(opts["path"], Path(tmp), [t.name for t in tasks])
            started = timezone.now()
            t0 = time.monotonic()
            self.stdout.write(f"evaluating {len(tasks)} tasks of {split} with the {sandbox_backend().name} backend "
                              f"(isolation {sandbox_backend().isolation}) ...")
            pairs = folder_evaluate(tasks=tasks, root=root, concurrency=opts["concurrency"],
                                    on_done=lambda t, e: self.stdout.write(f"  done {t.name}: {e.outcome}"))
        entries = [entry_from_evaluation(t, e) for t, e in pairs]
        report = build_report(
            benchmark={"name": split.benchmark.name, "version": split.benchmark.version, "split": split.name},
            evaluator={"version": EVALUATOR_VERSION, "backend": sandbox_backend().name,
                       "isolation": sandbox_backend().isolation, "environment": environment_stamp()},
            submission={"id": None, "system": str(opts["path"]), "created_at": started.isoformat(),
                        "finished_at": timezone.now().isoformat()},
            tasks=entries)
        self._print(report, time.monotonic() - t0)
        if opts["json"]:
            opts["json"].write_text(json.dumps(report, indent=2))
            self.stdout.write(f"report written to {opts['json']}")
        if opts["csv"]:
            opts["csv"].write_text(report_csv(report))

    def _materialize(self, path: Path, tmp: Path, names: list[str]) -> Path:
        if path.is_dir():
            return path
        if not path.is_file():
            raise CommandError(f"{path} is neither a folder nor an archive")
        try:
            extract_archive(path, tmp / "submission", limits=archive_limits(), task_names=names)
        except ArchiveError as exc:
            raise CommandError(str(exc)) from exc
        return tmp / "submission"

    def _print(self, report: dict, seconds: float) -> None:
        fmt = "{:<24} {:<6} {:<15} {:>3} {:>9} {:>9} {:>7}"
        self.stdout.write(fmt.format("task", "lang", "outcome", "dsr", "ac", "tests", "pass@1"))
        for t in report["tasks"]:
            ac = "n/a" if t["ac"] is None else f"{t['ac_implemented']}/{t['ac_declared']}"
            self.stdout.write(fmt.format(t["task"][:24], t["language"], t["outcome"], t["dsr"], ac,
                                         f"{t['tests_passed']}/{t['tests_total']}", f"{100 * t['pass_at_1']:.1f}%"))
        for name, m in [("overall", report["summary"]["overall"]), *report["summary"]["by_language"].items()]:
            ac = "n/a" if m["ac"] is None else f"{100 * m['ac']:.1f}%"
            self.stdout.write(f"{name:<8} tasks {m['tasks']:>2}  Pass@1 {100 * m['pass_at_1']:.1f}% "
                              f"[{100 * m['pass_at_1_ci'][0]:.1f}, {100 * m['pass_at_1_ci'][1]:.1f}]  AC {ac}  "
                              f"DSR {100 * m['dsr']:.1f}%  Solved {100 * m['solved']:.1f}%")
        self.stdout.write(f"wall time {seconds:.1f} s")
