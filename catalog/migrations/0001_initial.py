"""The catalog models, moved here from `leaderboard` with their tables (`leaderboard_*`): state only, no table
changes, so an existing database keeps its rows (tests/test_migrations.py)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('leaderboard', '0006_system_type_reference'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.SeparateDatabaseAndState(state_operations=[
        migrations.CreateModel(
            name='Benchmark',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.SlugField(max_length=64)),
                ('title', models.CharField(blank=True, max_length=200)),
                ('version', models.CharField(help_text='sha256 over READMEs, hidden tests and metadata', max_length=64)),
                ('is_current', models.BooleanField(default=True)),
                ('storage_dir', models.CharField(help_text='private folder under BENCHMARK_ROOT', max_length=500)),
                ('info', models.JSONField(blank=True, default=dict, help_text='manifest facts: paper, source, licence, ...')),
                ('imported_at', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'db_table': 'leaderboard_benchmark',
                'ordering': ['name', '-imported_at'],
                'constraints': [models.UniqueConstraint(fields=('name', 'version'), name='benchmark_name_version')],
            },
        ),
        migrations.CreateModel(
            name='Task',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=200)),
                ('language', models.CharField(choices=[('python', 'Python'), ('java', 'Java')], max_length=16)),
                ('port', models.PositiveIntegerField()),
                ('framework', models.CharField(blank=True, max_length=64)),
                ('framework_guessed', models.BooleanField(default=False)),
                ('domain', models.CharField(blank=True, max_length=64)),
                ('readme', models.TextField()),
                ('declared_endpoints', models.JSONField(default=list, help_text='[{"method": "GET", "path": "/x/{param}"}]')),
                ('tests_total', models.PositiveIntegerField(default=0)),
                ('handout_files', models.JSONField(default=dict, help_text='files given to agents with the README, {path: text}')),
                ('has_reference', models.BooleanField(default=False)),
                ('reference_status', models.CharField(default='unchecked', max_length=32)),
                ('reference_detail', models.CharField(blank=True, max_length=500)),
                ('reference_runs', models.JSONField(blank=True, default=list, help_text='reference checks: [{"passed", "total", "outcome", "seconds"}]')),
                ('port_source', models.CharField(blank=True, help_text='the README line (or file) that gave the port', max_length=300)),
                ('suite_kind', models.CharField(blank=True, help_text='black-box HTTP, white-box or in-process', max_length=32)),
                ('fixes', models.JSONField(blank=True, default=list, help_text='documented fixes: [{"kind", "args", "why"}]')),
                ('defects', models.JSONField(blank=True, default=list, help_text='defect notes: [{"kind", "text", "source"}]')),
                ('benchmark', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tasks', to='catalog.benchmark')),
            ],
            options={
                'db_table': 'leaderboard_task',
                'ordering': ['name'],
            },
        ),
        migrations.CreateModel(
            name='Split',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.SlugField(max_length=64)),
                ('visibility', models.CharField(choices=[('public', 'Public'), ('endpoint-only', 'Endpoint only'), ('hidden', 'Hidden')], default='public', max_length=16)),
                ('benchmark', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='splits', to='catalog.benchmark')),
                ('tasks', models.ManyToManyField(related_name='splits', to='catalog.task')),
            ],
            options={
                'db_table': 'leaderboard_split',
            },
        ),
        migrations.CreateModel(
            name='Team',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=100, unique=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('members', models.ManyToManyField(related_name='teams', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'db_table': 'leaderboard_team',
            },
        ),
        migrations.CreateModel(
            name='System',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=100, unique=True)),
                ('agent_framework', models.CharField(blank=True, max_length=100)),
                ('base_model', models.CharField(blank=True, max_length=100)),
                ('type', models.CharField(choices=[('agent', 'Agent'), ('ide', 'IDE'), ('other', 'Other'), ('reference', 'Reference (oracle)')], default='agent', max_length=16)),
                ('url', models.URLField(blank=True, verbose_name='URL')),
                ('description', models.TextField(blank=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='systems', to='catalog.team')),
            ],
            options={
                'db_table': 'leaderboard_system',
                'ordering': ['name'],
            },
        ),
        migrations.CreateModel(
            name='ReportedResult',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('benchmark_name', models.SlugField(help_text='the benchmark the authors evaluated on, by name', max_length=64)),
                ('split_name', models.SlugField(max_length=64)),
                ('system', models.CharField(max_length=100)),
                ('base_model', models.CharField(blank=True, max_length=100)),
                ('type', models.CharField(choices=[('agent', 'Agent'), ('ide', 'IDE'), ('other', 'Other'), ('reference', 'Reference (oracle)')], default='agent', max_length=16)),
                ('python_pass_at_1', models.DecimalField(blank=True, decimal_places=2, max_digits=5, null=True)),
                ('python_ac', models.DecimalField(blank=True, decimal_places=2, max_digits=5, null=True)),
                ('python_dsr', models.DecimalField(blank=True, decimal_places=2, max_digits=5, null=True)),
                ('java_pass_at_1', models.DecimalField(blank=True, decimal_places=2, max_digits=5, null=True)),
                ('java_ac', models.DecimalField(blank=True, decimal_places=2, max_digits=5, null=True)),
                ('java_dsr', models.DecimalField(blank=True, decimal_places=2, max_digits=5, null=True)),
                ('consistent', models.BooleanField(default=True)),
                ('findings', models.JSONField(blank=True, default=list)),
                ('source', models.CharField(max_length=300)),
                ('source_url', models.URLField(blank=True, verbose_name='source URL')),
                ('source_date', models.DateField()),
                ('paper', models.CharField(blank=True, max_length=300)),
                ('paper_url', models.URLField(blank=True, verbose_name='paper URL')),
                ('denominators', models.JSONField(default=dict, help_text='{"python": {"tasks": 22, "endpoints": 115}, ...}')),
                ('line', models.PositiveIntegerField(default=0, help_text='line of the row in the source file')),
                ('verified_at', models.DateTimeField(blank=True, null=True)),
                ('imported_at', models.DateTimeField(auto_now=True)),
                ('verified_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'published result',
                'db_table': 'leaderboard_reportedresult',
                'ordering': ['benchmark_name', 'split_name', 'line'],
                'constraints': [models.UniqueConstraint(fields=('benchmark_name', 'split_name', 'system', 'base_model'), name='reported_result_identity')],
            },
        ),
        migrations.AddConstraint(
            model_name='task',
            constraint=models.UniqueConstraint(fields=('benchmark', 'name'), name='task_benchmark_name'),
        ),
        migrations.AddConstraint(
            model_name='split',
            constraint=models.UniqueConstraint(fields=('benchmark', 'name'), name='split_benchmark_name'),
        ),
    ])]
