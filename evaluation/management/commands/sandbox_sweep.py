"""`manage.py sandbox_sweep`: remove the sandbox leftovers of workers that are gone (namespaces, cgroups,
containers, task folders and their mounts: evaluation.tasks.sandbox_leftovers_remove). scripts/worker.sh runs it once
its workers have stopped, so Ctrl-C on `make run` leaves nothing mounted under var/ (a worker killed mid-evaluation
cannot tear its sandbox down itself). Live workers' sandboxes are spared."""
from django.core.management.base import BaseCommand

from evaluation.tasks import sandbox_leftovers_remove


class Command(BaseCommand):
    help = "Remove the sandbox leftovers (namespaces, cgroups, containers, task folders) of workers that are gone."

    def handle(self, *args, **options) -> None:
        removed = sandbox_leftovers_remove()
        if removed:
            self.stdout.write(f"removed {removed} sandbox leftovers of stopped workers")
