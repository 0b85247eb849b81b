"""`manage.py seed_demo [--on-worker]`: the demo team, its three systems and their evaluated submissions
(idempotent: a system that already has a submission on the split is skipped)."""
import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from evaluation.seeding import describe_run, seed_submission
from catalog.models import System, Team
from catalog.selectors import NotFound, split_get
from catalog.services import system_create, task_reference_dir
from submissions.archives import zip_folders, zip_submission_folder

DEMO = Path(settings.BASE_DIR) / "benchmarks" / "demo-submissions"


class Command(BaseCommand):
    help = "Create the demo systems and evaluate their submissions (skips systems that already have one)."

    def add_arguments(self, parser):
        parser.add_argument("--on-worker", action="store_true",
                            help="queue the evaluations for the Celery worker instead of running them here")

    def handle(self, *args, **opts):
        try:
            split = split_get(benchmark="demo", split="verified")
        except NotFound as exc:
            raise CommandError(f"{exc}: run `manage.py import_benchmark benchmarks/demo` first") from exc
        spec = json.loads((DEMO / "systems.json").read_text())
        team, _ = Team.objects.get_or_create(name=spec["team"])
        for entry in spec["systems"]:
            folder = entry.pop("folder")
            system = System.objects.filter(name=entry["name"]).first() or system_create(team=team, **entry)
            if folder == "reference":
                data = zip_folders({t.name: task_reference_dir(t) for t in split.tasks.all() if task_reference_dir(t)})
            else:
                data = zip_submission_folder(DEMO / folder)
            run = seed_submission(system=system, split=split, data=data, filename=f"{folder}.zip",
                                  on_worker=opts["on_worker"], note="demo seed")
            self.stdout.write(describe_run(system, run))
