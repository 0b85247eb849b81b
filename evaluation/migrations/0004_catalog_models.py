"""Foreign keys now name the catalog models; the tables and constraints are unchanged (state only)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('catalog', '0001_initial'),
        ('evaluation', '0003_run_split'),
    ]

    operations = [migrations.SeparateDatabaseAndState(state_operations=[
        migrations.AlterField(
            model_name='evaluationrun',
            name='benchmark',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='runs', to='catalog.benchmark'),
        ),
        migrations.AlterField(
            model_name='evaluationrun',
            name='split',
            field=models.ForeignKey(help_text='the split (of one benchmark version) this run scored', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='runs', to='catalog.split'),
        ),
        migrations.AlterField(
            model_name='taskresult',
            name='task',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='results', to='catalog.task'),
        ),
    ])]
