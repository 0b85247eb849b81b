"""`manage.py check_references --benchmark NAME [--runs 3] [--on-worker]`: run every reference solution of the
benchmark's current version against its own suite and record passed / flaky / failed on each task."""
from django.core.management.base import BaseCommand, CommandError

from evaluation.pipeline import references_check
from evaluation.tasks import reference_check
from catalog.models import Benchmark


class Command(BaseCommand):
    help = "Check a benchmark's reference solutions against their suites (here, or queued for the worker)."

    def add_arguments(self, parser):
        parser.add_argument("--benchmark", required=True)
        parser.add_argument("--runs", type=int, default=3, help="runs per reference (default 3)")
        parser.add_argument("--on-worker", action="store_true", help="queue one check per task for the worker")

    def handle(self, *args, **opts):
        bench = Benchmark.objects.filter(name=opts["benchmark"], is_current=True).first()
        if bench is None:
            raise CommandError(f"no benchmark named {opts['benchmark']!r}: import it first")
        tasks = list(bench.tasks.order_by("name"))
        if opts["on_worker"]:
            for task in tasks:
                reference_check.delay(task.pk, opts["runs"])
            self.stdout.write(f"queued reference checks for {len(tasks)} tasks of {bench} ({opts['runs']} runs each)")
            return
        flagged = references_check(tasks=tasks, runs=opts["runs"], on_done=lambda t, e: self.stdout.write(
            f"  reference {t.name:<30} {e.outcome:<14} {e.tests_passed}/{e.tests_total}"))
        for task in tasks:
            self.stdout.write(f"{task.name:<30} {task.reference_status:<8} {task.reference_detail}")
        if flagged:
            self.stderr.write(f"flagged: {', '.join(f'{t.name} ({t.reference_status})' for t in flagged)}")
