"""`manage.py rescore --outdated [--benchmark NAME] [--dry-run]` or `manage.py rescore --submission ID [ID ...]`:
score stored submissions again on the current version of their benchmark with this evaluator
(evaluation.services.submission_rescore: a new queued run for the worker; the older runs and results stay; no
quota is used). `--outdated` picks every submission whose latest run has ended and is marked "scored on an older
version" (EvaluationRun.is_outdated: an older benchmark version or an older evaluator), after an upgrade
(docs/deploy.md "Upgrading the evaluator and re-scoring")."""
from django.core.management.base import BaseCommand, CommandError
from django.db.models import Prefetch

from catalog.models import Split
from evaluation.models import EvaluationRun, RunStatus
from evaluation.services import submission_rescore
from submissions.models import Submission

ENDED = (RunStatus.FINISHED, RunStatus.FAILED)


def outdated_submissions(*, benchmark: str | None = None) -> list[Submission]:
    """Submissions whose latest run ended (finished or failed) on an older benchmark version or evaluator, oldest
    first; a submission already re-queued (its latest run is queued or running) is left out."""
    runs = EvaluationRun.objects.select_related("benchmark").order_by("-pk")
    subs = Submission.objects.prefetch_related(Prefetch("runs", queryset=runs)).select_related("split__benchmark")
    if benchmark:
        subs = subs.filter(split__benchmark__name=benchmark)
    found = []
    for submission in subs.order_by("pk"):
        latest = next(iter(submission.runs.all()), None)
        if latest is not None and latest.status in ENDED and latest.is_outdated:
            found.append(submission)
    return found


class Command(BaseCommand):
    help = "Re-score stored submissions on the current benchmark version with this evaluator (queued for the worker)."

    def add_arguments(self, parser):
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--outdated", action="store_true",
                           help='every submission whose latest run is "scored on an older version"')
        which.add_argument("--submission", type=int, nargs="+", dest="submissions", metavar="ID")
        parser.add_argument("--benchmark", help="with --outdated: only this benchmark's submissions")
        parser.add_argument("--dry-run", action="store_true", help="list what would be re-scored, change nothing")

    def handle(self, *args, **opts):
        if opts["submissions"]:
            wanted = set(opts["submissions"])
            subs = list(Submission.objects.filter(pk__in=wanted).select_related("split__benchmark").order_by("pk"))
            missing = sorted(wanted - {s.pk for s in subs})
            if missing:
                raise CommandError(f"no submission with id {', '.join(map(str, missing))}: nothing was re-scored")
        else:
            subs = outdated_submissions(benchmark=opts["benchmark"])
        queued = 0
        for submission in subs:
            label = f"submission {submission.pk} ({submission.split.benchmark.name}/{submission.split.name})"
            if opts["dry_run"]:
                self.stdout.write(f"would re-score {label}")
                continue
            try:
                run = submission_rescore(submission=submission)
            except Split.DoesNotExist:
                self.stderr.write(f"skipped {label}: the current version of {submission.split.benchmark.name} has "
                                  f"no split {submission.split.name!r}")
                continue
            queued += 1
            self.stdout.write(f"queued run {run.pk} for {label}")
        verb = "would re-score" if opts["dry_run"] else "queued"
        self.stdout.write(f"{verb} {len(subs) if opts['dry_run'] else queued} submission(s)")
