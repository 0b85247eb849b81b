"""Account pages: the account (its e-mail address and how to verify it, password change), the verification link,
and a password reset that cannot flood a mailbox. Sign-up itself is leaderboard.views.pages.signup.

Django's own views do the password reset and change (django.contrib.auth.urls under /accounts/); their pages are
templates/registration/*.html in the site's look.
"""
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django_ratelimit.core import is_ratelimited

from leaderboard.accounts import account_email_of, account_email_set, email_verify as verify_token, verification_send
from leaderboard.forms import AccountEmailForm

TOO_MANY_MAILS = "Too many e-mails asked for in a short time from your address: try again in an hour."


def _mail_limited(request, group: str) -> bool:
    """True when this address (and account, if signed in) asked for more than EMAIL_SEND_RATE mails of `group`."""
    return is_ratelimited(request, group=group, key="user_or_ip", rate=settings.EMAIL_SEND_RATE, increment=True)


@login_required
def account(request):
    """/account/: the account's e-mail address (verified or not; none for accounts made before sign-up asked for
    one), a form to add or change it (which mails a verification link; the same address sends the link again),
    and the link to change the password. 400 for a refused address, 429 past EMAIL_SEND_RATE."""
    record = account_email_of(request.user)
    form = AccountEmailForm(request.POST or None, initial={"email": record.email if record else request.user.email})
    status = 200
    if request.method == "POST" and form.is_valid():
        if _mail_limited(request, "email-verify"):
            form.add_error(None, TOO_MANY_MAILS)
            status = 429
        else:
            try:
                record = account_email_set(user=request.user, email=form.cleaned_data["email"])
            except ValidationError as exc:
                form.add_error(None, exc)  # {"email": message}: shown at the field
            else:
                if record.is_verified:
                    messages.info(request, f"{record.email} is already verified.")
                else:
                    verification_send(request=request, record=record)
                    messages.success(request, f"We sent a verification link to {record.email}: open it to finish.")
                return redirect("leaderboard:account")
    if request.method == "POST" and form.errors and status == 200:
        status = 400
    return render(request, "registration/account.html", {"form": form, "record": record}, status=status)


def email_verify(request, token: str):
    """/account/email/verify/<token>/: the link mailed to an address. Verifies it (the account can then reset
    its password by e-mail); 400 with what to do for an expired, damaged or outdated link."""
    try:
        record = verify_token(token)
    except ValidationError as exc:
        return render(request, "registration/email_verify_done.html", {"problem": " ".join(exc.messages)},
                      status=400)
    return render(request, "registration/email_verify_done.html", {"record": record})


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset (mails a one-time link to the account's verified address; says the same whether or
    not an account has it, so the form reveals no address), at most EMAIL_SEND_RATE requests per address (429)."""

    def get_context_data(self, **kwargs):
        """The form's context plus `timeout_days`, how long the mailed link works (PASSWORD_RESET_TIMEOUT)."""
        return super().get_context_data(timeout_days=max(1, settings.PASSWORD_RESET_TIMEOUT // 86400), **kwargs)

    def post(self, request, *args, **kwargs):
        """Send the reset mail, or 429 with the form and why once the address asked for too many."""
        if _mail_limited(request, "password-reset"):
            form = self.get_form()
            form.is_valid()
            form.add_error(None, TOO_MANY_MAILS)
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().post(request, *args, **kwargs)


password_reset = PasswordResetView.as_view()
