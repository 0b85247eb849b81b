"""System descriptions have a length limit (forms and the API; TextField: no table change)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('catalog', '0003_system_name_skeleton'),
    ]

    operations = [
        migrations.AlterField(
            model_name='system',
            name='description',
            field=models.TextField(blank=True, max_length=2000),
        ),
    ]
