"""Foreign keys now name the catalog models; the tables and constraints are unchanged (state only)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('catalog', '0001_initial'),
        ('submissions', '0002_agent_endpoints'),
    ]

    operations = [migrations.SeparateDatabaseAndState(state_operations=[
        migrations.AlterField(
            model_name='agentendpoint',
            name='system',
            field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='agent_endpoint', to='catalog.system'),
        ),
        migrations.AlterField(
            model_name='generationcall',
            name='task',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='generation_calls', to='catalog.task'),
        ),
        migrations.AlterField(
            model_name='submission',
            name='split',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='submissions', to='catalog.split'),
        ),
        migrations.AlterField(
            model_name='submission',
            name='system',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='submissions', to='catalog.system'),
        ),
    ])]
