"""The Celery application.

With no `CELERY_BROKER_URL` in the environment the broker is kombu's filesystem transport under
`var/broker/` (embedded: no server to run, works across processes). Settings are read from Django's
settings with the `CELERY_` prefix (Celery docs, "First steps with Django").
"""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("repogenesis")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
