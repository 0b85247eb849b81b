"""User names' skeletons recomputed with the rule of catalog 0015 (leaderboard 0011's fill, run again)."""
import importlib

from django.db import migrations


def _recompute(apps, schema_editor):
    apps.get_model("leaderboard", "AccountName").objects.all().delete()
    importlib.import_module("leaderboard.migrations.0011_account_name")._fill(apps, schema_editor)


class Migration(migrations.Migration):

    dependencies = [
        ("leaderboard", "0016_email_verified_unique"),
        ("catalog", "0015_name_skeleton_partial_badge"),
    ]

    operations = [
        migrations.RunPython(_recompute, migrations.RunPython.noop),
    ]
