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
        from django.db.models.signals import pre_save

        pre_save.connect(_password_changing, sender=get_user_model(), dispatch_uid="token-on-password-change")


def _account_name_saved(instance, raw: bool = False, **_) -> None:
    """post_save of a user: store the look of its name (leaderboard.accounts.account_name_record); not for fixture
    loading (`raw`)."""
    if not raw:
        from leaderboard.accounts import account_name_record

        account_name_record(instance)


def _password_changing(instance, raw: bool = False, **_) -> None:
    """pre_save of a user whose password changes (the change and reset pages, the admin, `changepassword`): its API
    token is deleted, so a token taken with the old password stops working; a new one comes with the next
    /api/v1/auth/token/ request (the ninth break-it pass of issue 13: a token outlived both)."""
    if raw or instance.pk is None:
        return
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    stored = get_user_model().objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if stored is not None and stored != instance.password:
        Token.objects.filter(user_id=instance.pk).delete()
