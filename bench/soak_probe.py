"""Loaded into the soak's Celery workers (`celery worker --include bench.soak_probe`, see bench/soak.py): appends one
line "<result id> <outcome> <tests passed> <pid> <unix time>" to $SOAK_PROBE_LOG each time a task result is stored as
done (evaluation.pipeline.result_store saves the row), so the soak can tell a result recorded twice from one
recorded once. It changes nothing the worker does."""
from __future__ import annotations

import os
import time

from django.db.models.signals import post_save
from django.dispatch import receiver

from evaluation.models import TaskResult

LOG = os.environ.get("SOAK_PROBE_LOG", "")


@receiver(post_save, sender=TaskResult, dispatch_uid="soak-probe")
def _stored(sender, instance: TaskResult, **kwargs) -> None:
    if not LOG or instance.status != TaskResult.Status.DONE:
        return
    line = f"{instance.pk} {instance.outcome} {instance.tests_passed} {os.getpid()} {time.time():.3f}\n"
    fd = os.open(LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line.encode())
    finally:
        os.close(fd)
