from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    """The site: ranking, charts, every page and API view, accounts (its one table since catalog 0001:
    AccountEmail)."""

    name = "leaderboard"
    default_auto_field = "django.db.models.BigAutoField"
