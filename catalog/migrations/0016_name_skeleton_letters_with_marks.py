"""System and team skeletons recomputed (catalog.names.name_skeleton): letters of any script "WITH" a tick, hook,
stroke or descender read as their base letter ("Соҏіӏот" is "Copilot"), and the sharp s, the Greek epsilons and mu
and the Cyrillic "в" read as the Latin letters they are drawn like (the eleventh break-it pass of issue 13), and so
do Cherokee "Ꮖ", Lisu "ꓘ", five CJK ideographs and four Hangul conjoining jamo (the twelfth). Two
existing names that now look alike keep both rows, the later one's skeleton marked with its id."""
import importlib

from django.db import migrations


def _recompute(apps, schema_editor):
    recompute = importlib.import_module("catalog.migrations.0008_name_skeleton_uts39")._recompute
    recompute(apps, schema_editor, "System")
    recompute(apps, schema_editor, "Team")


class Migration(migrations.Migration):

    dependencies = [
        ("catalog", "0015_name_skeleton_partial_badge"),
    ]

    operations = [
        migrations.RunPython(_recompute, migrations.RunPython.noop),
    ]
