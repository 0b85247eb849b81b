from django.apps import AppConfig


class SubmissionsConfig(AppConfig):
    """Archive uploads, their checks and quotas; submission pages and API."""

    name = "submissions"
    default_auto_field = "django.db.models.BigAutoField"
