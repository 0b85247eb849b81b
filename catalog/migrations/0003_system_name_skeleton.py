"""System names are unique by their skeleton (catalog.names): existing rows get theirs; two existing names that
already look alike keep both rows, the later one's skeleton marked with its id."""
from django.db import migrations, models


def _fill(apps, schema_editor, model: str = "System"):
    """Give every row of `model` (System, or Team since catalog 0010) its name's skeleton, the later of two rows
    that look alike `<skeleton>#<id>`."""
    from catalog.names import name_skeleton

    Model = apps.get_model("catalog", model)
    seen = set()
    for row in Model.objects.order_by("pk"):
        skeleton = name_skeleton(row.name)
        if skeleton in seen:
            skeleton = f"{skeleton}#{row.pk}"
        seen.add(skeleton)
        Model.objects.filter(pk=row.pk).update(name_skeleton=skeleton)


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
