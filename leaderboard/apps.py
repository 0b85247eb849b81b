from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    """The site: ranking, charts, every page and API view, accounts (its tables since catalog 0001:
    AccountEmail, BoardVersion, AccountName)."""

    name = "leaderboard"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from leaderboard.board_cache import connect_signals

        connect_signals()
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_save

        post_save.connect(_account_name_saved, sender=get_user_model(), dispatch_uid="account-name")


def _account_name_saved(instance, raw: bool = False, **_) -> None:
    """post_save of a user: store the look of its name (leaderboard.accounts.account_name_record); not for fixture
    loading (`raw`)."""
    if not raw:
        from leaderboard.accounts import account_name_record

        account_name_record(instance)
