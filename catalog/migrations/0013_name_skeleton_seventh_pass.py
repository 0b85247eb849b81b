"""System and team skeletons recomputed (catalog.names.name_skeleton, the seventh break-it pass of issue 13): Coptic
small letters map as their capitals do ("ⲓ" is "l"), Armenian small liwn "լ" is an "l", Latin small eth "ð" a "d",
the vertical presentation forms of the em dash, en dash and low line an "l", the ideographic full stops and the
ring point an "o", Tifinagh yal "ll". Two existing names that now look alike keep both rows, the later one's
skeleton marked with its id."""
import importlib

from django.db import migrations


def _recompute(apps, schema_editor):
    recompute = importlib.import_module("catalog.migrations.0008_name_skeleton_uts39")._recompute
    recompute(apps, schema_editor, "System")
    recompute(apps, schema_editor, "Team")


class Migration(migrations.Migration):

    dependencies = [
        ("catalog", "0012_name_skeleton_twins"),
    ]

    operations = [
        migrations.RunPython(_recompute, migrations.RunPython.noop),
    ]
