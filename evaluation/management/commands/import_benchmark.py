"""`manage.py import_benchmark DIR|GIT_URL [--commit C --subdir S] [--manifest M] [--name N] [--split S]
[--skip-reference-check]` (docs/benchmark-format.md)."""
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from core.engine.collect import collect_count
from core.engine.runner_env import RunnerEnvError
from evaluation.engine_setup import toolchain
from evaluation.pipeline import references_check
from catalog.benchmark_fetch import BenchmarkFetchError, fetch_benchmark, is_git_url
from catalog.benchmark_files import BenchmarkFormatError, read_benchmark
from catalog.services import benchmark_import


class Command(BaseCommand):
    help = ("Import a benchmark folder in the RepoGenesis layout (or a git repository at a pinned commit); "
            "checks every reference solution against its suite.")

    def add_arguments(self, parser):
        parser.add_argument("path", help="a folder, or a git URL (with --commit and --subdir)")
        parser.add_argument("--commit", help="with a git URL: the pinned 40-hex-digit commit")
        parser.add_argument("--subdir", default="", help="with a git URL: the benchmark's folder inside the repository")
        parser.add_argument("--manifest", type=Path,
                            help="a benchmark manifest kept outside the folder (e.g. benchmarks/repogenesis/"
                                 "benchmark.json); default: the folder's own benchmark.json, if any")
        parser.add_argument("--name", help="benchmark name (default: the manifest's name or the folder name)")
        parser.add_argument("--split", default="verified", help="split for all tasks when there is no manifest")
        parser.add_argument("--skip-reference-check", action="store_true",
                            help="do not run reference solutions against their suites")
        parser.add_argument("--reference-runs", type=int, default=3,
                            help="runs per reference solution; a reference that fails any run is flagged (default 3)")

    def handle(self, *args, **opts):
        if is_git_url(opts["path"]):
            if not opts["commit"]:
                raise CommandError("a git URL needs --commit <40-hex-digit commit> (and --subdir if the benchmark "
                                   "is not at the repository's root)")
            with tempfile.TemporaryDirectory(prefix="benchmark-clone-") as tmp:
                try:
                    folder = fetch_benchmark(url=opts["path"], commit=opts["commit"], subdir=opts["subdir"],
                                             into=Path(tmp))
                except BenchmarkFetchError as exc:
                    raise CommandError(f"{exc}; nothing was imported") from exc
                self.stdout.write(f"fetched {opts['path']} at {opts['commit'][:12]}, folder {opts['subdir'] or '.'}")
                self._import(folder, opts, fetched={"url": opts["path"], "commit": opts["commit"],
                                                    "subdir": opts["subdir"]})
        else:
            self._import(Path(opts["path"]), opts)

    def _import(self, folder: Path, opts, *, fetched: dict | None = None) -> None:
        try:
            source = read_benchmark(folder, name=opts["name"], split=opts["split"], manifest_path=opts["manifest"])
        except BenchmarkFormatError as exc:
            raise CommandError(f"{exc}; nothing was imported") from exc
        if fetched:
            source.info["fetched_from"] = fetched  # provenance, shown with the benchmark
        counts = {}
        for task in source.tasks:
            if task.language == "python":
                try:
                    counts[task.name] = collect_count(task.folder, toolchain(), pytest_args=task.pytest_args)
                except RunnerEnvError as exc:
                    raise CommandError(f"task {task.name}: cannot build its test-runner environment: {exc}; "
                                       "nothing was imported") from exc
        outcome = benchmark_import(source=source, test_counts=counts)
        bench = outcome.benchmark
        verb = "imported" if outcome.created else "unchanged, already imported as"
        tasks = bench.tasks.order_by("name")
        langs = {lang: tasks.filter(language=lang).count() for lang in ("python", "java")}
        self.stdout.write(f"{verb} {bench.name} version {bench.version[:12]}: {len(tasks)} tasks "
                          f"({langs['python']} Python, {langs['java']} Java), splits {', '.join(source.splits)}")
        ports = {t.name: t.port_source for t in source.tasks}
        for task in tasks:
            self.stdout.write(f"  {task.name:<30} {task.language:<6} port {task.port:<5} N {task.tests_total:>3}  "
                              f"{len(task.declared_endpoints):>2} endpoints  {task.suite_kind:<14} · "
                              f"port from {ports.get(task.name) or task.port_source}")
            for fix in task.fixes:
                self.stdout.write(f"    fix: {' '.join(fix['args'])} ({fix['why']})")
            for defect in task.defects:
                self.stderr.write(f"  ! {task.name}: {defect['text']}")
        if outcome.created and not opts["skip_reference_check"]:
            shipped = sum(t.has_reference for t in tasks)
            self.stdout.write(f"checking reference solutions ({opts['reference_runs']} runs each) ..." if shipped
                              else "no reference solution shipped: nothing to check")
            flagged = references_check(tasks=list(tasks), runs=opts["reference_runs"], on_done=self._report)
            if flagged:
                self.stderr.write("flagged: reference fails or flakes on its suite for "
                                  f"{', '.join(f'{t.name} ({t.reference_status})' for t in flagged)}")

    def _report(self, task, evaluation):
        self.stdout.write(f"  reference {task.name:<28} {evaluation.outcome:<14} "
                          f"{evaluation.tests_passed}/{evaluation.tests_total}")
