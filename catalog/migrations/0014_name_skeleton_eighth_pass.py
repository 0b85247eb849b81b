"""System and team skeletons recomputed (catalog.names.name_skeleton, the eighth break-it pass of issue 13): decimal
digits of every script read by their value ("Dem᧐ Agent Alpha" with a New Tai Lue zero is "Demo Agent Alpha"), and
Tai Le "ᥣ", the Telugu fraction digit one, "ʅ", "ɿ" and Thai "เ" an "l", "ҳ" and Greek "χ" an "x", "ʗ" a "c", Thai
"๏" an "o". Two existing names that now look alike keep both rows, the later one's skeleton marked with its id."""
import importlib

from django.db import migrations


def _recompute(apps, schema_editor):
    recompute = importlib.import_module("catalog.migrations.0008_name_skeleton_uts39")._recompute
    recompute(apps, schema_editor, "System")
    recompute(apps, schema_editor, "Team")


class Migration(migrations.Migration):

    dependencies = [
        ("catalog", "0013_name_skeleton_seventh_pass"),
    ]

    operations = [
        migrations.RunPython(_recompute, migrations.RunPython.noop),
    ]
