"""System and team skeletons recomputed (catalog.names.name_skeleton): "partial" joins the decorations names are
compared without, as the board draws it as a badge ("Demo Agent Alpha partial" is "Demo Agent Alpha"), and the
thorn reads as a "p" (the tenth break-it pass of issue 13: "Coþilot"), and the eleventh pass's CJK strokes, Bopomofo
and Hangul letters drawn as Latin capitals, "$" and "§" as an "s", and badge words said another way ("reported by
authors", "evaluated", "partial run"). Two existing names that now look alike keep
both rows, the later one's skeleton marked with its id."""
import importlib

from django.db import migrations


def _recompute(apps, schema_editor):
    recompute = importlib.import_module("catalog.migrations.0008_name_skeleton_uts39")._recompute
    recompute(apps, schema_editor, "System")
    recompute(apps, schema_editor, "Team")


class Migration(migrations.Migration):

    dependencies = [
        ("catalog", "0014_name_skeleton_eighth_pass"),
    ]

    operations = [
        migrations.RunPython(_recompute, migrations.RunPython.noop),
    ]
