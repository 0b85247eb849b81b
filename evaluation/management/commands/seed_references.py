"""`manage.py seed_references --benchmark NAME [--split S] [--on-worker]`: the benchmark's reference solutions as a
system of type `reference` (an oracle shown apart from the ranking), evaluated like any submission."""
from django.core.management.base import BaseCommand, CommandError

from evaluation.seeding import describe_run, seed_submission
from catalog.models import System, Team
from catalog.selectors import NotFound, split_get
from catalog.services import system_create, task_reference_dir
from submissions.archives import zip_folders

TEAM = "platform"


class Command(BaseCommand):
    help = "Submit a benchmark's reference solutions as its oracle system (skipped when already submitted)."

    def add_arguments(self, parser):
        parser.add_argument("--benchmark", required=True)
        parser.add_argument("--split", default="verified")
        parser.add_argument("--on-worker", action="store_true",
                            help="queue the evaluation for the Celery worker instead of running it here")

    def handle(self, *args, **opts):
        try:
            split = split_get(benchmark=opts["benchmark"], split=opts["split"])
        except NotFound as exc:
            raise CommandError(f"{exc}: import the benchmark first (manage.py import_benchmark)") from exc
        folders = {t.name: task_reference_dir(t) for t in split.tasks.order_by("name") if task_reference_dir(t)}
        if not folders:
            raise CommandError(f"{split} ships no reference solution: nothing to seed")
        title = split.benchmark.title or split.benchmark.name
        name = f"{title} reference solutions"
        team, _ = Team.objects.get_or_create(name=TEAM)
        system = System.objects.filter(name=name).first() or system_create(
            team=team, name=name, agent_framework="hand-written", base_model="none", type=System.Type.REFERENCE,
            description=f"Reference solutions for {len(folders)} of the {split.tasks.count()} tasks of {split}, "
                        "written by the platform's team from each README and suite: the oracle, never ranked.")
        run = seed_submission(system=system, split=split, data=zip_folders(folders), filename="references.zip",
                              on_worker=opts["on_worker"], note="reference solutions")
        self.stdout.write(describe_run(system, run) + f" ({len(folders)} tasks with a reference)")
