from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    """The site: ranking, charts, every page and API view, accounts (its tables since catalog 0001:
    AccountEmail, BoardVersion)."""

    name = "leaderboard"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from leaderboard.board_cache import connect_signals

        connect_signals()
