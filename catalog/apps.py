from django.apps import AppConfig


class CatalogConfig(AppConfig):
    """Benchmarks, tasks, splits, teams, systems and published results (tables kept under `leaderboard_*`)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "catalog"
