"""System names' skeletons recomputed with the fuller UTS #39 skeleton (catalog.names.name_skeleton: confusables.txt's
prototypes of more than one letter, "m" -> "rn", and the project's own "vv", "cl", "i" -> "l"). Two existing names
that now look alike keep both rows, the later one's skeleton marked with its id (as catalog 0003 did)."""
from django.db import migrations


def _recompute(apps, schema_editor):
    from catalog.names import name_skeleton

    System = apps.get_model("catalog", "System")
    # first out of the way (the column is unique, and a new skeleton may be an old one of another row)
    for pk in System.objects.values_list("pk", flat=True):
        System.objects.filter(pk=pk).update(name_skeleton=f"#recompute#{pk}")
    seen = set()
    for system in System.objects.order_by("pk"):
        skeleton = name_skeleton(system.name)
        if skeleton in seen:
            skeleton = f"{skeleton}#{system.pk}"
        seen.add(skeleton)
        System.objects.filter(pk=system.pk).update(name_skeleton=skeleton)


class Migration(migrations.Migration):

    dependencies = [
        ("catalog", "0007_task_bundle_sha256"),
    ]

    operations = [
        migrations.RunPython(_recompute, migrations.RunPython.noop),
    ]
