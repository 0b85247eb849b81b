"""System and team skeletons recomputed (catalog.names.name_skeleton, the sixth break-it pass of issue 13): letters
drawn with the very glyph of a letter of another skeleton map to it (Cyrillic "м" as the small capital "ᴍ", Greek
"ω" as the Cyrillic "ѡ", Armenian "Լ" as "L", ...), and U+0674 ARABIC LETTER HIGH HAMZA is dropped like the hamza
mark. Two existing names that now look alike keep both rows, the later one's skeleton marked with its id."""
import importlib

from django.db import migrations


def _recompute(apps, schema_editor):
    recompute = importlib.import_module("catalog.migrations.0008_name_skeleton_uts39")._recompute
    recompute(apps, schema_editor, "System")
    recompute(apps, schema_editor, "Team")


class Migration(migrations.Migration):

    dependencies = [
        ("catalog", "0011_name_skeleton_words"),
    ]

    operations = [
        migrations.RunPython(_recompute, migrations.RunPython.noop),
    ]
