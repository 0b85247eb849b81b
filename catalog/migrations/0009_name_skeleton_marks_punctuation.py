"""System names' skeletons recomputed once more (catalog.names.name_skeleton now drops combining marks, spaces and
punctuation: "Copi\u0307lot", "Demo-Agent-Alpha" and "Demo Agent Alpha" share one; maps before NFKC; reads
right-to-left confusables and small capitals). Two existing names that now
look alike keep both rows, the later one's skeleton marked with its id (catalog 0008's recomputation, reused)."""
import importlib

from django.db import migrations


def _recompute(apps, schema_editor):
    importlib.import_module("catalog.migrations.0008_name_skeleton_uts39")._recompute(apps, schema_editor)


class Migration(migrations.Migration):

    dependencies = [
        ("catalog", "0008_name_skeleton_uts39"),
    ]

    operations = [
        migrations.RunPython(_recompute, migrations.RunPython.noop),
    ]
