"""The models left for the catalog app (state only: their tables stay, now owned by catalog); their content types
and permissions follow them."""

from django.db import migrations


MODELS = ["benchmark", "task", "split", "team", "system", "reportedresult"]


def _content_types_to_catalog(apps, schema_editor):
    apps.get_model("contenttypes", "ContentType").objects.filter(app_label="leaderboard", model__in=MODELS).update(
        app_label="catalog")


def _content_types_to_leaderboard(apps, schema_editor):
    apps.get_model("contenttypes", "ContentType").objects.filter(app_label="catalog", model__in=MODELS).update(
        app_label="leaderboard")


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('evaluation', '0004_catalog_models'),
        ('leaderboard', '0006_system_type_reference'),
        ('submissions', '0003_catalog_models'),
    ]

    operations = [migrations.SeparateDatabaseAndState(state_operations=[
        migrations.RemoveField(
            model_name='task',
            name='benchmark',
        ),
        migrations.RemoveField(
            model_name='split',
            name='benchmark',
        ),
        migrations.RemoveField(
            model_name='reportedresult',
            name='verified_by',
        ),
        migrations.RemoveField(
            model_name='split',
            name='tasks',
        ),
        migrations.RemoveField(
            model_name='system',
            name='team',
        ),
        migrations.RemoveField(
            model_name='team',
            name='members',
        ),
        migrations.DeleteModel(
            name='Benchmark',
        ),
        migrations.DeleteModel(
            name='ReportedResult',
        ),
        migrations.DeleteModel(
            name='Split',
        ),
        migrations.DeleteModel(
            name='Task',
        ),
        migrations.DeleteModel(
            name='System',
        ),
        migrations.DeleteModel(
            name='Team',
        ),
    ]), migrations.RunPython(_content_types_to_catalog, _content_types_to_leaderboard)]
