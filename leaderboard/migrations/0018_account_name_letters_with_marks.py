"""User names' skeletons recomputed with the rule of catalog 0016 (leaderboard 0011's fill, run again)."""
import importlib

from django.db import migrations


def _recompute(apps, schema_editor):
    apps.get_model("leaderboard", "AccountName").objects.all().delete()
    importlib.import_module("leaderboard.migrations.0011_account_name")._fill(apps, schema_editor)


class Migration(migrations.Migration):

    dependencies = [
        ("leaderboard", "0017_account_name_partial_badge"),
        ("catalog", "0016_name_skeleton_letters_with_marks"),
    ]

    operations = [
        migrations.RunPython(_recompute, migrations.RunPython.noop),
    ]
