"""The throttles' cache table (settings.THROTTLE_CACHE_ALIAS: Django's DatabaseCache when no THROTTLE_CACHE_URL or
CACHE_URL is set): `createcachetable` on every migrate, so any database the site migrates can count sign-ups and
token requests (it makes nothing when the throttles' cache is Redis, and nothing that exists already). A backend
switched later is covered by the `createcachetable` step of scripts/release.sh and scripts/run.sh."""
from django.core.management import call_command
from django.db import migrations


def _create(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):

    dependencies = [
        ("leaderboard", "0009_board_version"),
    ]

    operations = [
        migrations.RunPython(_create, migrations.RunPython.noop),
    ]
