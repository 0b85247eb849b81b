"""Accounts that can be recovered (issue 13, defect 7): an e-mail address per account, proved by a signed link.

The rule: an account gives an address at sign-up (accounts made before that rule add one on /account/); the
site mails a link signed with SECRET_KEY (django.core.signing, salt `VERIFY_SALT`) that stays valid for
EMAIL_VERIFY_MAX_AGE_SECONDS; opening it marks the address verified and copies it to `User.email`, which is what
Django's password reset mails to. So a reset link only ever goes to an address its owner proved. An address
belongs to one account at most, compared case-insensitively.
"""
from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from leaderboard.models import AccountEmail

VERIFY_SALT = "leaderboard.accounts.email-verify"

TAKEN = "This e-mail address is already used by another account. Log in to that account, or reset its password."


def email_normalize(address: str) -> str:
    """The address as stored: surrounding spaces removed, the domain lower-cased (Django's normalize_email)."""
    return User.objects.normalize_email((address or "").strip())


def email_taken(address: str, *, user: User | None = None) -> bool:
    """True when another account than `user` holds `address` (verified or not), case-insensitively."""
    held = AccountEmail.objects.filter(email__iexact=address)
    verified = User.objects.filter(email__iexact=address)
    if user is not None:
        held, verified = held.exclude(user=user), verified.exclude(pk=user.pk)
    return held.exists() or verified.exists()


def account_email_of(user: User) -> AccountEmail | None:
    """The address the account gave (pending or verified), or None when it gave none."""
    return AccountEmail.objects.filter(user=user).first()


def account_email_set(*, user: User, email: str) -> AccountEmail:
    """Give the account `email` to verify (a new address replaces a pending or verified one; `User.email` keeps
    the verified one until the new one is verified). Raises ValidationError({"email": ...}) when another account
    holds the address."""
    email = email_normalize(email)
    if email_taken(email, user=user):
        raise ValidationError({"email": TAKEN})
    current = account_email_of(user)
    if current is not None and current.email.lower() == email.lower():
        return current
    try:
        with transaction.atomic():
            record, _ = AccountEmail.objects.update_or_create(user=user, defaults={"email": email,
                                                                                 "verified_at": None})
    except IntegrityError as exc:  # taken between the check and the write
        raise ValidationError({"email": TAKEN}) from exc
    return record


def verification_token(record: AccountEmail) -> str:
    """The signed, URL-safe token of the verification link: the account's id and the address, timestamped."""
    return signing.dumps({"user": record.user_id, "email": record.email.lower()}, salt=VERIFY_SALT)


def verification_send(*, request: HttpRequest, record: AccountEmail) -> None:
    """Mail the verification link for `record` to its address (EMAIL_BACKEND: the console by default)."""
    url = request.build_absolute_uri(reverse("leaderboard:email_verify", args=[verification_token(record)]))
    context = {"user": record.user, "email": record.email, "url": url, "site": request.get_host(),
               "days": max(1, settings.EMAIL_VERIFY_MAX_AGE_SECONDS // 86400)}
    subject = render_to_string("registration/email_verify_subject.txt", context).strip()
    body = render_to_string("registration/email_verify_email.txt", context)
    send_mail(subject, body, None, [record.email])


def email_verify(token: str) -> AccountEmail:
    """Verify the address a link's token names: sets `verified_at` and copies the address to `User.email`.
    Opening a link twice is harmless. Raises ValidationError with what went wrong and what to do: an expired
    link, a damaged one, or one for an address the account has replaced since."""
    try:
        data = signing.loads(token, salt=VERIFY_SALT, max_age=settings.EMAIL_VERIFY_MAX_AGE_SECONDS)
    except signing.SignatureExpired as exc:
        raise ValidationError("This verification link has expired: log in and send a new one from your account "
                              "page.") from exc
    except signing.BadSignature as exc:
        raise ValidationError("This verification link is not valid (it may be cut short by your mail program): "
                              "copy the whole link, or send a new one from your account page.") from exc
    record = AccountEmail.objects.select_related("user").filter(user_id=data.get("user")).first()
    if record is None or record.email.lower() != data.get("email"):
        raise ValidationError("This link is for an address your account no longer uses: verify the current one "
                              "from your account page.")
    if record.verified_at is None:
        with transaction.atomic():
            record.verified_at = timezone.now()
            record.save(update_fields=["verified_at", "updated_at"])
            User.objects.filter(email__iexact=record.email).exclude(pk=record.user_id).update(email="")
            record.user.email = record.email
            record.user.save(update_fields=["email"])
    return record
