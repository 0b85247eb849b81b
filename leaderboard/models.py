"""The site's own tables: the e-mail address of an account and whether its owner proved it (issue 13, defect 7),
the look of each user name (AccountName), and the board's version.

`User.email` holds an account's *verified* address only (what Django's password reset mails to, and what the
rest of the site may use to reach a user); the address being verified lives here until its link is opened.
"""
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower


class AccountEmail(models.Model):
    """The address given at sign-up (or added later on /account/) and when it was verified (null: not yet).

    A verified address belongs to one account at most, compared case-insensitively (the constraint
    `account_email_verified_unique_ci`; the forms say so before it is hit); several accounts may have given one
    that none verified (leaderboard.accounts: the first to open its link takes it)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="account_email")
    email = models.EmailField(max_length=254)
    verified_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(Lower("email"), condition=Q(verified_at__isnull=False),
                                               name="account_email_verified_unique_ci")]

    def __str__(self) -> str:
        return f"{self.email} ({'verified' if self.verified_at else 'not verified'})"

    @property
    def is_verified(self) -> bool:
        """True once the owner opened the link mailed to this address."""
        return self.verified_at is not None


class AccountName(models.Model):
    """The skeleton of a user name (catalog.names.name_skeleton), unique: user names are shown to other users
    (invitations, a team's members, personal teams), so "аlice" with a Cyrillic "а" may not pass for "alice" (the
    fourth break-it pass of issue 13). Written for every new user (leaderboard.accounts.account_name_record); a
    user whose name came to look like an earlier one's (made by an admin, or before this table) has
    `<skeleton>#<user id>`."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="account_name")
    skeleton = models.CharField(max_length=300, unique=True)

    def __str__(self) -> str:
        return f"{self.user} ({self.skeleton})"


class BoardVersion(models.Model):
    """The version of everything the public board shows (leaderboard.board_cache): one row, its `value` set to a
    new random number in the transaction that records a result, finishes or withdraws a submission, verifies a
    published row or edits a system. Cached board rows and responses are keyed by it, so a change is seen by the next request of every
    process (a counter in the database, not in a per-process local-memory cache)."""

    value = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"board version {self.value}"
