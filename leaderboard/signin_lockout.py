"""The sign-in lockout's handler (settings.AXES_HANDLER): django-axes' database handler, except what a successful
sign-in clears.

django-axes counts wrong passwords per address and per account from that address (AXES_LOCKOUT_PARAMETERS). With
AXES_RESET_ON_SUCCESS its database handler deletes, on any successful sign-in, every attempt that matches *any* of
those parameters, so all of the address's attempts: an attacker who guessed 9 passwords for someone else's account
then signed in to an account of their own (or signed up, which signs the new account in) started again from 0 and
could guess without end. django-axes 8 has no setting for "reset the account's count only", hence this handler.
"""
from __future__ import annotations

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.http import HttpRequest


class AccountOnlyResetHandler(AxesDatabaseHandler):
    """django-axes' AxesDatabaseHandler whose reset on success (AXES_RESET_ON_SUCCESS) deletes only the attempts of
    the account that signed in, from the address it signed in from: that account's own typos stop counting (towards
    the account's lockout and the address's), the address's wrong passwords for any other account keep counting
    until they expire (AXES_COOLOFF_TIME)."""

    def reset_user_attempts(self, request: HttpRequest, credentials: dict | None = None) -> int:
        """Delete the AccessAttempt rows of the account in `credentials` (the one that signed in: django-axes'
        user_logged_in passes {AXES_USERNAME_FORM_FIELD: its username}) from `request.axes_ip_address`; the number
        of rows deleted. No username: nothing is deleted (0)."""
        username = get_client_username(request, credentials)
        if not username:
            return 0
        count, _ = AccessAttempt.objects.filter(username=username, ip_address=request.axes_ip_address).delete()
        return count
