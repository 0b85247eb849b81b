"""System names are unique by their skeleton (catalog.names): existing rows get theirs; two existing names that
already look alike keep both rows, the later one's skeleton marked with its id."""
from django.db import migrations, models


def _fill(apps, schema_editor):
    from catalog.names import name_skeleton

    System = apps.get_model("catalog", "System")
    seen = set()
    for system in System.objects.order_by("pk"):
        skeleton = name_skeleton(system.name)
        if skeleton in seen:
            skeleton = f"{skeleton}#{system.pk}"
        seen.add(skeleton)
        System.objects.filter(pk=system.pk).update(name_skeleton=skeleton)


class Migration(migrations.Migration):

    dependencies = [
        ("catalog", "0002_choices"),
    ]

    operations = [
        migrations.AddField(model_name="system", name="name_skeleton",
                            field=models.CharField(editable=False, max_length=300, null=True)),
        migrations.RunPython(_fill, migrations.RunPython.noop),
        migrations.AlterField(model_name="system", name="name_skeleton",
                              field=models.CharField(editable=False, max_length=300, unique=True,
                                                     help_text="the name as compared for look-alikes "
                                                               "(catalog.names.name_skeleton)")),
    ]
