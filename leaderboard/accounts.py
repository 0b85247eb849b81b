"""Accounts that can be recovered (issue 13, defect 7): an e-mail address per account, proved by a signed link.

The rule: an account gives an address at sign-up (accounts made before that rule add one on /account/); the
site mails a link signed with SECRET_KEY (django.core.signing, salt `VERIFY_SALT`) that stays valid for
EMAIL_VERIFY_MAX_AGE_SECONDS; opening it marks the address verified and copies it to `User.email`, which is what
Django's password reset mails to. So a reset link only ever goes to an address its owner proved. An address
belongs to one account at most, compared case-insensitively.

An address nobody verified holds nothing: several accounts may give it at once, and the first to open the link
mailed to it takes it (the other accounts' records of it are removed; their links no longer verify anything). So
no one can keep an address from its owner by giving it first and never verifying it (break-it pass 9 of issue
13: a hold renewed each time it lapsed kept it for ever). A link verifies for EMAIL_VERIFY_MAX_AGE_SECONDS from when the
account gave the address (`AccountEmail.updated_at`; sending the link again does not extend it; giving the address
again after that starts anew). A verified address stays the account's until it changes it.
"""
from __future__ import annotations

import unicodedata
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.forms import BaseUserCreationForm
from django.contrib.auth.models import User
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from catalog.conflicts import Unique, unique_refusal
from catalog.models import Team, reserved_name_problem
from catalog.services import team_for_user
from catalog.names import name_problem, name_skeleton
from leaderboard.models import AccountEmail, AccountName

VERIFY_SALT = "leaderboard.accounts.email-verify"

FIRST_VERIFIED = ("Another account has verified this address first: give your account another one from your account "
                  "page.")
TAKEN = "This e-mail address is already used by another account. Log in to that account, or reset its password."


def email_normalize(address: str) -> str:
    """The address as stored: surrounding spaces removed, the domain lower-cased (Django's normalize_email)."""
    return User.objects.normalize_email((address or "").strip())


def pending_until(record: AccountEmail) -> datetime | None:
    """When the links mailed for an unverified address stop verifying it; None for a verified address."""
    if record.verified_at is not None:
        return None
    return record.updated_at + timedelta(seconds=settings.EMAIL_VERIFY_MAX_AGE_SECONDS)


def email_taken(address: str, *, user: User | None = None) -> bool:
    """True when another account than `user` verified `address`, case-insensitively (an address given and not
    verified takes nothing: see the module's docstring)."""
    verified = AccountEmail.objects.filter(email__iexact=address, verified_at__isnull=False)
    users = User.objects.filter(email__iexact=address)
    if user is not None:
        verified, users = verified.exclude(user=user), users.exclude(pk=user.pk)
    return verified.exists() or users.exists()


def account_email_of(user: User) -> AccountEmail | None:
    """The address the account gave (pending or verified), or None when it gave none."""
    return AccountEmail.objects.filter(user=user).first()


def account_email_set(*, user: User, email: str) -> AccountEmail:
    """Give the account `email` to verify (a new address replaces a pending or verified one; `User.email` keeps
    the verified one until the new one is verified). Giving again the same unverified address keeps the time it
    was given while its links work (a resend does not extend them) and starts anew once they have stopped.
    Raises ValidationError({"email": ...}) when another account verified the address."""
    email = email_normalize(email)
    if email_taken(email, user=user):
        raise ValidationError({"email": TAKEN})
    current = account_email_of(user)
    if current is not None and current.email.lower() == email.lower():
        if current.verified_at is None and pending_until(current) <= timezone.now():
            current.save(update_fields=["updated_at"])  # new links from now
        return current
    record, _ = AccountEmail.objects.update_or_create(user=user, defaults={"email": email, "verified_at": None})
    return record


def account_create(*, form: BaseUserCreationForm) -> tuple[User, AccountEmail, Team]:
    """Make the account of a valid sign-up form (its `email` field holds the address to verify) in one transaction:
    the user, its address (`account_email_set`) and its personal team (catalog.services.team_for_user); a sign-up
    refused on the way keeps none of them. Returns (user, address record, team); the caller mails the link.

    Raises ValidationError({"username": ...}) with the form's own "taken" message when another sign-up took the user
    name between the form's check and the write (the unique auth_user.username), ValidationError({"email": TAKEN})
    when the address was taken so."""
    with transaction.atomic():
        with unique_refusal(Unique(User, ("username",)), refusal=_username_taken):
            user = form.save()
        record = account_email_set(user=user, email=form.cleaned_data["email"])
        team = team_for_user(user=user)
    return user, record, team


def _username_taken() -> ValidationError:
    """The refusal of a taken user name, as Django's sign-up form words it (UserCreationForm.clean_username)."""
    return ValidationError({"username": User().unique_error_message(User, ("username",))})


def verification_token(record: AccountEmail) -> str:
    """The signed, URL-safe token of the verification link: the account's id and the address, timestamped."""
    return signing.dumps({"user": record.user_id, "email": record.email.lower()}, salt=VERIFY_SALT)


def verification_send(*, request: HttpRequest, record: AccountEmail) -> None:
    """Mail the verification link for `record` to its address (EMAIL_BACKEND: the console by default)."""
    url = request.build_absolute_uri(reverse("leaderboard:email_verify", args=[verification_token(record)]))
    context = {"user": record.user, "email": record.email, "url": url, "site": request.get_host(),
               "expires": pending_until(record)}
    subject = render_to_string("registration/email_verify_subject.txt", context).strip()
    body = render_to_string("registration/email_verify_email.txt", context)
    send_mail(subject, body, None, [record.email])


def email_verify(token: str) -> AccountEmail:
    """Verify the address a link's token names: sets `verified_at` and copies the address to `User.email`.
    Opening a link twice is harmless. Raises ValidationError with what went wrong and what to do: an expired
    link (older than EMAIL_VERIFY_MAX_AGE_SECONDS, counted from when the account gave the address), a damaged one,
    one for an address the account has replaced since, or one for an address another account verified first."""
    try:
        data = signing.loads(token, salt=VERIFY_SALT, max_age=settings.EMAIL_VERIFY_MAX_AGE_SECONDS)
    except signing.SignatureExpired as exc:
        raise ValidationError("This verification link has expired: log in and send a new one from your account "
                              "page.") from exc
    except signing.BadSignature as exc:
        raise ValidationError("This verification link is not valid (it may be cut short by your mail program): "
                              "copy the whole link, or send a new one from your account page.") from exc
    record = AccountEmail.objects.select_related("user").filter(user_id=data.get("user")).first()
    if (record is None or record.email.lower() != data.get("email")) and email_taken(str(data.get("email"))):
        raise ValidationError(FIRST_VERIFIED)
    if record is None or record.email.lower() != data.get("email"):
        raise ValidationError("This link is for an address your account no longer uses: verify the current one "
                              "from your account page.")
    if record.verified_at is None and pending_until(record) <= timezone.now():
        raise ValidationError("This verification link has expired: log in and send a new one from your account "
                              "page.")
    if record.verified_at is None:
        try:
            with transaction.atomic():
                if email_taken(record.email, user=record.user):
                    raise IntegrityError("verified by another account")
                record.verified_at = timezone.now()
                record.save(update_fields=["verified_at", "updated_at"])
                AccountEmail.objects.filter(email__iexact=record.email, verified_at__isnull=True).exclude(
                    pk=record.pk).delete()  # the other accounts that gave it and never proved it
                record.user.email = record.email
                record.user.save(update_fields=["email"])
        except IntegrityError as exc:  # another account opened its link first (account_email_verified_unique_ci)
            raise ValidationError(FIRST_VERIFIED) from exc
    return record


def username_problem(username: str) -> str | None:
    """Why a new account may not be called `username` (a sentence saying what to change), or None: the rules of
    every name on the board (catalog.names.name_problem: no invisible, blank-looking or control character, not only
    digits), a reserved name (catalog.models.reserved_name_problem: "admin", "staff", the benchmark's, a published
    system's), or the look of another user's name (AccountName: "аlice" with a Cyrillic "а", "aIice", "ALICE").
    User names are shown to other users: in invitations, a team's members and personal team names. No "@" (also
    a full-width one): an invitation to a name holding one is read as an e-mail address
    (catalog.services.team_invite), so "victim@example.org" as a name would take invitations meant for that address.
    """
    problem = name_problem(username) or reserved_name_problem(username)
    if problem:
        return problem.replace("Give the system a name.", "Choose a user name.")
    if "@" in unicodedata.normalize("NFKC", username):
        return ('A user name cannot hold "@": invitations read such a name as an e-mail address. Choose a user '
                "name without it (your e-mail address goes in its own field).")
    if AccountName.objects.filter(skeleton=name_skeleton(username)).exists():
        return username_lookalike_refusal(username)
    return None


def username_lookalike_refusal(username: str) -> str:
    """The refusal of a user name that looks like another user's."""
    return f"A user name that looks like {username!r} is taken; choose another."


def account_name_record(user: User) -> AccountName:
    """Store the look of `user`'s name (its skeleton) when it is new or changed: the plain skeleton, or
    `<skeleton>#<user id>` when another user's name holds it (an account an admin made, or a sign-up that lost a
    race: `account_name_is_own` tells). Never raises for a look-alike."""
    skeleton = name_skeleton(user.username) or "#"
    current = AccountName.objects.filter(user=user).first()
    if current is not None and current.skeleton.split("#", 1)[0] == skeleton.split("#", 1)[0]:
        return current
    for value in (skeleton, f"{skeleton}#{user.pk}"):
        try:
            with transaction.atomic():
                record, _ = AccountName.objects.update_or_create(user=user, defaults={"skeleton": value})
                return record
        except IntegrityError:
            continue
    raise IntegrityError(f"no skeleton could be stored for user {user.pk}")  # "<skeleton>#<id>" is unique by id


def account_name_is_own(user: User) -> bool:
    """True when `user`'s name looks like no earlier user's: its AccountName holds the plain skeleton. A sign-up
    checks it after creating the account, in its transaction: of two sign-ups of "dave" and "DAVE" at once, the
    later finds it false and is refused (both passed `username_problem` before either was stored)."""
    return AccountName.objects.filter(user=user, skeleton=name_skeleton(user.username)).exists()
