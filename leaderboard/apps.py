from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    """Benchmarks, tasks, splits, teams, systems; ranking and pages."""

    name = "leaderboard"
    default_auto_field = "django.db.models.BigAutoField"
