from django.apps import AppConfig


class EvaluationConfig(AppConfig):
    """Evaluation runs, task results, the engine glue and the Celery tasks."""

    name = "evaluation"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import tasks  # noqa: F401 (connects the notification receiver of signals.submission_ended)
