"""`manage.py import_reported MANIFEST`: published results as "reported by the authors" rows (not ranked until
an admin verifies them). See leaderboard/reported_files.py for the file format."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from leaderboard.reported_files import ReportedFormatError, read_reported
from leaderboard.services import reported_results_import


class Command(BaseCommand):
    help = "Import published results (a TOML manifest and its CSV) as rows reported by the authors."

    def add_arguments(self, parser):
        parser.add_argument("manifest", type=Path, help="e.g. benchmarks/reported/repogenesis-verified.toml")

    def handle(self, *args, **opts):
        try:
            source = read_reported(opts["manifest"])
        except ReportedFormatError as exc:
            raise CommandError(f"{exc}; nothing was imported") from exc
        outcome = reported_results_import(source=source)
        self.stdout.write(f"reported results for {source.benchmark}/{source.split} from {source.source}: "
                          f"{len(outcome.created)} new, {len(outcome.updated)} updated, "
                          f"{len(outcome.unchanged)} unchanged, {len(outcome.removed)} removed")
        for label in outcome.unverified:
            self.stderr.write(f"  ! {label}: published values changed, verification cleared")
        inconsistent = [r for r in source.rows if not r.consistent]
        if inconsistent:
            self.stderr.write(f"  {len(inconsistent)} rows cannot come from the stated task and endpoint counts "
                              "(shown marked, cannot be verified):")
            for row in inconsistent:
                problems = "; ".join(f.message for f in row.findings if f.kind == "denominator")
                self.stderr.write(f"    line {row.line}: {row.system} · {row.base_model}: {problems}")
