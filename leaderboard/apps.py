from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    """The site: ranking, charts, every page and API view (it owns no table since catalog 0001)."""

    name = "leaderboard"
    default_auto_field = "django.db.models.BigAutoField"
