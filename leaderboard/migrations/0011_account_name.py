"""User names are unique by their look (leaderboard.models.AccountName): every existing user gets the skeleton of
their name, the later of two that look alike `<skeleton>#<user id>`."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def _fill(apps, schema_editor):
    from catalog.names import name_skeleton

    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    AccountName = apps.get_model("leaderboard", "AccountName")
    seen = set()
    for pk, username in User.objects.order_by("pk").values_list("pk", "username"):
        skeleton = name_skeleton(username)
        if not skeleton or skeleton in seen:
            skeleton = f"{skeleton}#{pk}"
        seen.add(skeleton)
        AccountName.objects.create(user_id=pk, skeleton=skeleton)


class Migration(migrations.Migration):

    dependencies = [
        ('leaderboard', '0010_throttle_cache_table'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='AccountName',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('skeleton', models.CharField(max_length=300, unique=True)),
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='account_name', to=settings.AUTH_USER_MODEL)),
            ],
        ),
        migrations.RunPython(_fill, migrations.RunPython.noop),
    ]
