"""`manage.py seed_demo`: the demo team, its three systems and their evaluated submissions (idempotent)."""
import json
from pathlib import Path

from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management.base import BaseCommand, CommandError

from evaluation.services import run_execute_inline
from leaderboard.models import System, Team
from leaderboard.selectors import NotFound, split_get
from leaderboard.services import system_create, task_reference_dir
from submissions.archives import zip_folders, zip_submission_folder
from submissions.models import Submission
from submissions.services import submission_create

DEMO = Path(settings.BASE_DIR) / "benchmarks" / "demo-submissions"


class Command(BaseCommand):
    help = "Create the demo systems and evaluate their submissions (skips systems that already have one)."

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
            if Submission.objects.filter(system=system, split=split, status=Submission.Status.FINISHED).exists():
                self.stdout.write(f"{system.name}: already evaluated")
                continue
            if folder == "reference":
                data = zip_folders({t.name: task_reference_dir(t) for t in split.tasks.all() if task_reference_dir(t)})
            else:
                data = zip_submission_folder(DEMO / folder)
            upload = SimpleUploadedFile(f"{folder}.zip", data, content_type="application/zip")
            submission = submission_create(system=system, split=split, upload=upload, user=None,
                                           note="demo seed", enqueue=False)
            run = run_execute_inline(run_id=submission.runs.get().pk)
            overall = run.summary["overall"] if run.summary else {}
            self.stdout.write(f"{system.name}: {run.status}, Pass@1 {100 * overall.get('pass_at_1', 0):.1f}%, "
                              f"AC {100 * (overall.get('ac') or 0):.1f}%, DSR {100 * overall.get('dsr', 0):.1f}%")
