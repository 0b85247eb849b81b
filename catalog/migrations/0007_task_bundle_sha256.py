"""Tasks get the hash of their private-files bundle (catalog.bundles); the benchmarks this host imported get their
bundles packed now from the import's folder (tasks whose folder is not on this host are left for
`catalog.bundles.task_bundles_ensure`, which opening a run on the importing host calls)."""
import logging

from django.db import migrations, models

log = logging.getLogger(__name__)


def bundles_build(apps, schema_editor):
    from catalog.bundles import bundle_store, local_storage_dir

    Task = apps.get_model("catalog", "Task")
    for task in Task.objects.filter(bundle_sha256="").select_related("benchmark").iterator():
        folder = local_storage_dir(task.benchmark)
        if folder is None:
            continue
        try:
            sha256 = bundle_store(hidden=folder / "tasks" / task.name, reference=folder / "references" / task.name)
        except Exception as exc:  # an unreachable object store must not stop the release: the lazy path remains
            log.warning("no bundle for task %s: %s", task.name, exc)
            continue
        Task.objects.filter(pk=task.pk).update(bundle_sha256=sha256)


class Migration(migrations.Migration):
    dependencies = [("catalog", "0006_team_invitations")]

    operations = [
        migrations.AddField(
            model_name="task", name="bundle_sha256",
            field=models.CharField(blank=True, max_length=64,
                                   help_text="sha256 of the task's private files bundle (catalog.bundles), stored as "
                                             "bundles/<sha256>.tar.gz in the benchmarks storage"),
        ),
        migrations.RunPython(bundles_build, migrations.RunPython.noop, elidable=True),
    ]
