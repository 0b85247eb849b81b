"""System and team skeletons recomputed (catalog.names.name_skeleton, the fifth break-it pass of issue 13): badge
words are dropped wherever they stand as words ("Copilot (verified) · Claude"), "verified here" and "evaluated here"
count as badge words, Latin letters of Latin Extended-F and -G and small capitals with a stroke or bar are read from
their Unicode names, and a few letters of other scripts ("ㅣ", "丨", "।", "ㅇ") map to the Latin letter they look
like. Two existing names that now look alike keep both rows, the later one's skeleton marked with its id."""
import importlib

from django.db import migrations


def _recompute(apps, schema_editor):
    recompute = importlib.import_module("catalog.migrations.0008_name_skeleton_uts39")._recompute
    recompute(apps, schema_editor, "System")
    recompute(apps, schema_editor, "Team")


class Migration(migrations.Migration):

    dependencies = [
        ("catalog", "0010_team_name_skeleton"),
    ]

    operations = [
        migrations.RunPython(_recompute, migrations.RunPython.noop),
    ]
