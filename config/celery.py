"""The Celery application.

With no `CELERY_BROKER_URL` in the environment the broker is kombu's filesystem transport under
`var/broker/` (embedded: no server to run, works across processes). Settings are read from Django's
settings with the `CELERY_` prefix (Celery docs, "First steps with Django").
"""
import os
from pathlib import Path

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("repogenesis")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.before_task_publish.connect
@signals.worker_init.connect
@signals.beat_init.connect
def broker_folders_create(**_signal) -> None:
    """Make the filesystem transport's folders (kombu makes none) and the beat schedule's folder, before anything
    is published or consumed: the settings name these folders but create nothing."""
    folders = []
    if str(app.conf.broker_url or "").startswith("filesystem://"):
        options = app.conf.broker_transport_options or {}
        folders += [options[key] for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder")
                    if options.get(key)]
    if app.conf.beat_schedule_filename:
        folders.append(Path(app.conf.beat_schedule_filename).parent)
    for folder in folders:
        Path(folder).mkdir(parents=True, exist_ok=True)
