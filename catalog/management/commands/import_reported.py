"""`manage.py import_reported MANIFEST`: published results as "reported by the authors" rows (not ranked until
an admin verifies them). See catalog/reported_files.py for the file format."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from catalog.reported_files import ReportedFormatError, read_reported
from catalog.services import reported_results_import


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
            self.stderr.write(f"  ! {label}: published values or their check changed, verification cleared")
        for label in outcome.removed_verified:
            self.stderr.write(f"  ! {label}: verified, but no longer in the file: removed")
        for row in source.rows:
            if row.claimed_consistent is not None and row.claimed_consistent != row.consistent:
                self.stderr.write(f"  ! line {row.line}: the file says consistent={'yes' if row.claimed_consistent else 'no'}"
                                  f", our check says {'yes' if row.consistent else 'no'}")
        flagged = [r for r in source.rows if r.findings]
        if flagged:
            self.stdout.write(f"  {len(flagged)} rows are marked and cannot be verified: "
                              f"{sum(not r.consistent for r in flagged)} hold values no task or endpoint count gives, "
                              f"{sum(r.consistent for r in flagged)} more a Pass@1 above their DSR "
                              "(shown on /reported/; -v 2 lists them)")
        if opts["verbosity"] >= 2:
            for row in flagged:
                self.stdout.write(f"    line {row.line}: {row.system} · {row.base_model}: "
                                  + "; ".join(f.message for f in row.findings))
