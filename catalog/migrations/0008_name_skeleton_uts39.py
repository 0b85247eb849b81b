"""System names' skeletons recomputed with the fuller UTS #39 skeleton (catalog.names.name_skeleton: confusables.txt's
prototypes of more than one letter, "m" -> "rn", and the project's own "vv", "cl", "i" -> "l"). Two existing names
that now look alike keep both rows, the later one's skeleton marked with its id (as catalog 0003 did)."""
import importlib

from django.db import migrations


def _recompute(apps, schema_editor, model: str = "System"):
    """Every row of `model` (System, or Team since catalog 0011) gets its name's skeleton again."""
    Model = apps.get_model("catalog", model)
    # first out of the way (the column is unique, and a new skeleton may be an old one of another row)
    for pk in Model.objects.values_list("pk", flat=True):
        Model.objects.filter(pk=pk).update(name_skeleton=f"#recompute#{pk}")
    importlib.import_module("catalog.migrations.0003_system_name_skeleton")._fill(apps, schema_editor, model)


class Migration(migrations.Migration):

    dependencies = [
        ("catalog", "0007_task_bundle_sha256"),
    ]

    operations = [
        migrations.RunPython(_recompute, migrations.RunPython.noop),
    ]
