"""`manage.py import_benchmark DIR [--name N] [--split S] [--skip-reference-check]` (BENCHMARK-FORMAT.md)."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from evaluation.engine.collect import collect_count
from evaluation.engine.runner_env import RunnerEnvError
from evaluation.engine_setup import toolchain
from evaluation.services import references_check
from leaderboard.benchmark_files import BenchmarkFormatError, read_benchmark
from leaderboard.services import benchmark_import


class Command(BaseCommand):
    help = "Import a benchmark folder in the RepoGenesis layout; checks every reference solution against its suite."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)
        parser.add_argument("--name", help="benchmark name (default: benchmark.json's name or the folder name)")
        parser.add_argument("--split", default="verified", help="split for all tasks when there is no manifest")
        parser.add_argument("--skip-reference-check", action="store_true",
                            help="do not run reference solutions against their suites")
        parser.add_argument("--reference-runs", type=int, default=3,
                            help="runs per reference solution; a reference that fails any run is flagged (default 3)")

    def handle(self, *args, **opts):
        try:
            source = read_benchmark(opts["path"], name=opts["name"], split=opts["split"])
        except BenchmarkFormatError as exc:
            raise CommandError(str(exc)) from exc
        counts = {}
        for task in source.tasks:
            if task.language == "python":
                try:
                    counts[task.name] = collect_count(task.folder, toolchain())
                except RunnerEnvError as exc:
                    raise CommandError(f"task {task.name}: cannot build its test-runner environment: {exc}") from exc
        outcome = benchmark_import(source=source, test_counts=counts)
        bench = outcome.benchmark
        verb = "imported" if outcome.created else "unchanged, already imported as"
        self.stdout.write(f"{verb} {bench.name} version {bench.version[:12]}: {bench.tasks.count()} tasks, "
                          f"splits {', '.join(source.splits)}")
        for task in bench.tasks.order_by("name"):
            self.stdout.write(f"  {task.name:<28} {task.language:<6} port {task.port:<5} "
                              f"{len(task.declared_endpoints):>2} endpoints {task.tests_total:>3} tests")
            if task.tests_total == 0:
                self.stderr.write(f"  ! {task.name}: no hidden test found (N = 0): flagged, cannot be scored")
        if outcome.created and not opts["skip_reference_check"]:
            self.stdout.write(f"checking reference solutions ({opts['reference_runs']} runs each) ...")
            flagged = references_check(tasks=list(bench.tasks.order_by("name")), runs=opts["reference_runs"],
                                       on_done=self._report)
            if flagged:
                self.stderr.write("flagged: reference fails or flakes on its suite for "
                                  f"{', '.join(f'{t.name} ({t.reference_status})' for t in flagged)}")

    def _report(self, task, evaluation):
        self.stdout.write(f"  reference {task.name:<28} {evaluation.outcome:<14} "
                          f"{evaluation.tests_passed}/{evaluation.tests_total}")
