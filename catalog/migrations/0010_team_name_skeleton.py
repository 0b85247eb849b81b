"""Team names are unique by their skeleton too (catalog.models.Team.name_skeleton: two renames at once to "Acme" and
"ACME" both passed the check, the fourth break-it pass of issue 13), and every skeleton is recomputed with the rule's
new parts (catalog.names: punctuation dropped before the confusables mapping unless drawn as letters, dash-like
letters and symbols dropped, Latin letters read from their Unicode names, badge words at the end stripped). Two
existing names that now look alike keep both rows, the later one's skeleton marked with its id (catalog 0003)."""
import importlib

from django.db import migrations, models

SKELETON_HELP = "the name as compared for look-alikes (catalog.names.name_skeleton)"


def _fill_teams(apps, schema_editor):
    importlib.import_module("catalog.migrations.0003_system_name_skeleton")._fill(apps, schema_editor, "Team")


def _recompute_systems(apps, schema_editor):
    importlib.import_module("catalog.migrations.0008_name_skeleton_uts39")._recompute(apps, schema_editor)


class Migration(migrations.Migration):

    dependencies = [
        ("catalog", "0009_name_skeleton_marks_punctuation"),
    ]

    operations = [
        migrations.AddField(model_name="team", name="name_skeleton",
                            field=models.CharField(editable=False, max_length=300, null=True)),
        migrations.RunPython(_fill_teams, migrations.RunPython.noop),
        migrations.AlterField(model_name="team", name="name_skeleton",
                              field=models.CharField(editable=False, help_text=SKELETON_HELP, max_length=300,
                                                     unique=True)),
        migrations.RunPython(_recompute_systems, migrations.RunPython.noop),
    ]
