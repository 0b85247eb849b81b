"""Accounts that can be recovered (issue 13, defect 7): sign-up asks for an e-mail address and verifies it by a
signed link; an address belongs to one account (case-insensitively); a password reset mails a working link to the
verified address and sets the new password; the password change works; the pages are the site's own. Mail goes
through Django's test backend (django.core.mail.outbox), exactly the messages a user would get."""
from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail, signing

from leaderboard.accounts import VERIFY_SALT
from leaderboard.models import AccountEmail

PASSWORD = "Very-Long-Pass-123"
SITE_NAV = 'class="brand"'  # base.html's header: the site's look, not the admin's


pytestmark = pytest.mark.usefixtures("fresh_rates")  # the sign-up, e-mail and token rates start empty


def _signup(client, username="carol", email="Carol@Example.org"):
    return client.post("/signup/", {"username": username, "email": email, "password1": PASSWORD,
                                    "password2": PASSWORD})


def _logs_in(client, username: str, password: str) -> bool:
    """Log in through the login form (django-axes wants the request); True when it let the user in."""
    resp = client.post("/accounts/login/", {"username": username, "password": password})
    return resp.status_code == 302 and "_auth_user_id" in client.session


def _link(message) -> str:
    """The one http link in a mail's body, as a path."""
    urls = re.findall(r"https?://[^\s]+", message.body)
    assert len(urls) == 1, message.body
    return re.sub(r"^https?://[^/]+", "", urls[0])


def test_sign_up_asks_for_an_address_and_mails_a_link_that_verifies_it(client, db):
    page = client.get("/signup/").content.decode()
    assert 'name="email"' in page and SITE_NAV in page
    resp = _signup(client)
    assert resp.status_code == 302
    user = User.objects.get(username="carol")
    assert user.email == ""  # not a reset address until proved
    record = AccountEmail.objects.get(user=user)
    assert record.email == "Carol@example.org" and not record.is_verified
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["Carol@example.org"]
    assert "verify" in mail.outbox[0].subject.lower()

    client.logout()  # the link works without a session (another browser, the phone's mail app)
    resp = client.get(_link(mail.outbox[0]))
    assert resp.status_code == 200 and "Address verified" in resp.content.decode()
    record.refresh_from_db()
    user.refresh_from_db()
    assert record.is_verified and user.email == "Carol@example.org"
    assert client.get(_link(mail.outbox[0])).status_code == 200  # opening it twice is harmless


def test_a_sign_up_without_an_address_or_with_a_taken_one_is_refused_and_nothing_is_made(client, db):
    resp = client.post("/signup/", {"username": "noaddr", "password1": PASSWORD, "password2": PASSWORD})
    assert resp.status_code == 400 and "This field is required" in resp.content.decode()
    assert _signup(client, "first", "dup@example.org").status_code == 302
    assert client.get(_link(mail.outbox[0])).status_code == 200  # verified: now it is taken
    client.logout()
    resp = _signup(client, "second", "DUP@EXAMPLE.ORG")
    assert resp.status_code == 400 and "already used by another account" in resp.content.decode()
    assert not User.objects.filter(username__in=["noaddr", "second"]).exists()
    assert len(mail.outbox) == 1


def test_a_damaged_expired_or_outdated_link_is_refused_with_what_to_do(client, db, settings):
    _signup(client)
    link = _link(mail.outbox[0])
    resp = client.get(link[:-6] + "xxxxx/")
    assert resp.status_code == 400 and "not valid" in resp.content.decode()
    settings.EMAIL_VERIFY_MAX_AGE_SECONDS = -1
    resp = client.get(link)
    assert resp.status_code == 400 and "expired" in resp.content.decode()
    settings.EMAIL_VERIFY_MAX_AGE_SECONDS = 3600
    assert client.post("/account/", {"email": "new@example.org"}).status_code == 302  # replaced since
    resp = client.get(link)
    assert resp.status_code == 400 and "no longer uses" in resp.content.decode()
    assert not AccountEmail.objects.get(user__username="carol").is_verified
    forged = signing.dumps({"user": User.objects.get(username="carol").pk, "email": "new@example.org"},
                           salt="another-salt")
    assert client.get(f"/account/email/verify/{forged}/").status_code == 400
    assert signing.loads(_link(mail.outbox[1]).split("/")[-2], salt=VERIFY_SALT)["email"] == "new@example.org"


def test_the_whole_password_reset_flow_by_e_mail(client, db):
    _signup(client, "dave", "dave@example.org")
    client.get(_link(mail.outbox[0]))  # verified
    client.logout()
    mail.outbox.clear()

    page = client.get("/accounts/login/").content.decode()
    assert 'href="/accounts/password_reset/"' in page
    page = client.get("/accounts/password_reset/").content.decode()
    assert SITE_NAV in page and "Reset your password" in page and "Django administration" not in page
    resp = client.post("/accounts/password_reset/", {"email": "DAVE@example.org"})
    assert resp.status_code == 302 and resp.url == "/accounts/password_reset/done/"
    assert SITE_NAV in client.get(resp.url).content.decode()
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["dave@example.org"]
    link = _link(mail.outbox[0])

    resp = client.get(link, follow=True)  # Django redirects to the set-password URL of the session
    page = resp.content.decode()
    assert resp.status_code == 200 and SITE_NAV in page and "Choose a new password" in page
    set_url = resp.redirect_chain[-1][0]
    resp = client.post(set_url, {"new_password1": "Another-Long-Pass-456", "new_password2": "Another-Long-Pass-456"})
    assert resp.status_code == 302 and resp.url == "/accounts/reset/done/"
    assert "Your password is set" in client.get(resp.url).content.decode()

    assert _logs_in(client, "dave", "Another-Long-Pass-456")
    assert not _logs_in(client, "dave", PASSWORD)
    client.logout()
    resp = client.get(link, follow=True)  # the link works once
    assert "This reset link does not work" in resp.content.decode()


def test_a_reset_goes_only_to_a_verified_address_and_the_form_reveals_none(client, db):
    _signup(client, "erin", "erin@example.org")  # never verified
    client.logout()
    mail.outbox.clear()
    for address in ["erin@example.org", "nobody@example.org"]:
        resp = client.post("/accounts/password_reset/", {"email": address})
        assert resp.status_code == 302 and resp.url == "/accounts/password_reset/done/"
    assert mail.outbox == []


def test_reset_requests_are_limited_per_address(client, db, settings):
    settings.EMAIL_SEND_RATE = "2/h"
    codes = [client.post("/accounts/password_reset/", {"email": "x@example.org"}).status_code for _ in range(3)]
    assert codes == [302, 302, 429]


def test_an_account_without_an_address_keeps_working_and_adds_one(client, make_user):
    user, _ = make_user("old")  # made before sign-up asked for an address
    assert _logs_in(client, "old", "pw-old-Secure-123")
    page = client.get("/account/").content.decode()
    assert "has no e-mail address" in page and SITE_NAV in page
    assert client.get("/systems/new/").status_code == 200
    resp = client.post("/account/", {"email": "old@example.org"})
    assert resp.status_code == 302 and len(mail.outbox) == 1
    assert "not verified" in client.get("/account/").content.decode()
    client.get(_link(mail.outbox[0]))
    user.refresh_from_db()
    assert user.email == "old@example.org"
    assert "verified" in client.get("/account/").content.decode()


def test_the_account_page_refuses_a_taken_or_malformed_address(client, make_user, db):
    _signup(client, "owner", "mine@example.org")
    client.get(_link(mail.outbox[0]))
    client.logout()
    make_user("other")
    _logs_in(client, "other", "pw-other-Secure-123")
    resp = client.post("/account/", {"email": "MINE@example.org"})
    assert resp.status_code == 400 and "already used by another account" in resp.content.decode()
    resp = client.post("/account/", {"email": "not an address"})
    assert resp.status_code == 400 and "valid email" in resp.content.decode()
    assert not AccountEmail.objects.filter(user__username="other").exists()
    assert client.get("/account/", follow=False).status_code == 200
    client.logout()
    assert client.get("/account/").status_code == 302  # log in first


def test_the_database_refuses_two_accounts_with_one_verified_address_in_any_case(make_user):
    from django.db import IntegrityError, transaction
    from django.utils import timezone

    a, _ = make_user("a")
    b, _ = make_user("b")
    c, _ = make_user("c")
    AccountEmail.objects.create(user=a, email="same@example.org", verified_at=timezone.now())
    AccountEmail.objects.create(user=c, email="SAME@example.org")  # given, not verified: holds nothing
    with pytest.raises(IntegrityError), transaction.atomic():
        AccountEmail.objects.create(user=b, email="Same@Example.org", verified_at=timezone.now())


def test_password_change_works_on_the_sites_own_page(client, make_user):
    make_user("frank")
    _logs_in(client, "frank", "pw-frank-Secure-123")
    page = client.get("/accounts/password_change/").content.decode()
    assert SITE_NAV in page and "Change your password" in page
    resp = client.post("/accounts/password_change/", {"old_password": "pw-frank-Secure-123",
                                                      "new_password1": "Brand-New-Pass-789",
                                                      "new_password2": "Brand-New-Pass-789"})
    assert resp.status_code == 302 and resp.url == "/accounts/password_change/done/"
    assert "Your password is changed" in client.get(resp.url).content.decode()
    client.logout()
    assert _logs_in(client, "frank", "Brand-New-Pass-789")


def _mail_settings(**env) -> list[str]:
    """EMAIL_BACKEND, EMAIL_HOST, EMAIL_PORT, EMAIL_USE_TLS as a fresh process reads them from `env`."""
    import os
    import subprocess
    import sys

    from django.conf import settings

    code = ("import django; django.setup(); from django.conf import settings as s; "
            "print(s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_USE_TLS)")
    environ = {k: v for k, v in os.environ.items() if k not in ("EMAIL_URL", "PYTEST_VERSION")}
    out = subprocess.run([sys.executable, "-c", code], env={**environ, "DJANGO_SETTINGS_MODULE": "config.settings",
                                                           "VAR_DIR": str(settings.VAR_DIR), **env},
                         cwd=settings.BASE_DIR, capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_mail_goes_to_the_console_by_default_and_to_smtp_by_email_url():
    assert _mail_settings()[0] == "django.core.mail.backends.console.EmailBackend"
    assert _mail_settings(EMAIL_URL="smtp+tls://user:secret@smtp.example.org:587") == [
        "django.core.mail.backends.smtp.EmailBackend", "smtp.example.org", "587", "True"]


def _lapse_hold(username: str, settings) -> None:
    """Move the moment `username` gave its address back past EMAIL_VERIFY_MAX_AGE_SECONDS (its hold lapses)."""
    from datetime import timedelta

    from django.utils import timezone

    AccountEmail.objects.filter(user__username=username).update(
        updated_at=timezone.now() - timedelta(seconds=settings.EMAIL_VERIFY_MAX_AGE_SECONDS + 60))


def test_an_address_nobody_verified_keeps_no_one_out_and_the_first_to_open_its_link_takes_it(client, db):
    """Break-it pass 9 of issue 13: an address given and never verified was held, and giving it again each time the
    hold lapsed kept it from its owner for ever. Now it holds nothing."""
    assert _signup(client, "squatter", "victim@example.org").status_code == 302
    squatter_link = _link(mail.outbox[0])
    client.logout()
    assert _signup(client, "victim", "Victim@Example.org").status_code == 302  # not kept out
    assert mail.outbox[-1].to == ["Victim@example.org"]
    assert client.get(_link(mail.outbox[-1])).status_code == 200
    victim = User.objects.get(username="victim")
    assert victim.email == "Victim@example.org" and victim.account_email.is_verified
    assert not AccountEmail.objects.filter(user__username="squatter").exists()

    resp = client.get(squatter_link)  # the squatter's link no longer verifies anything
    assert resp.status_code == 400 and "Another account has verified this address first" in resp.content.decode()
    assert User.objects.get(username="victim").email == "Victim@example.org"
    client.logout()
    assert _logs_in(client, "squatter", PASSWORD)
    page = client.get("/account/").content.decode()
    assert "has no e-mail address" in page
    resp = client.post("/account/", {"email": "victim@example.org"})
    assert resp.status_code == 400 and "already used by another account" in resp.content.decode()


def test_of_two_accounts_that_gave_one_address_the_second_link_opened_is_refused(client, db):
    _signup(client, "first", "shared@example.org")
    first_link = _link(mail.outbox[-1])
    client.logout()
    _signup(client, "second", "shared@example.org")
    second_link = _link(mail.outbox[-1])

    assert client.get(second_link).status_code == 200
    resp = client.get(first_link)
    assert resp.status_code == 400 and "Another account has verified this address first" in resp.content.decode()
    assert list(User.objects.filter(email__iexact="shared@example.org").values_list("username", flat=True)) == \
        ["second"]


def test_a_verified_address_stays_unique_however_long_ago_it_was_given(client, db, settings):
    _signup(client, "carol", "carol@example.org")
    client.get(_link(mail.outbox[0]))
    _lapse_hold("carol", settings)
    client.logout()
    resp = _signup(client, "mallory", "CAROL@example.org")
    assert resp.status_code == 400 and "already used by another account" in resp.content.decode()
    assert AccountEmail.objects.get(user__username="carol").is_verified
    assert User.objects.get(username="carol").email == "carol@example.org"


def test_a_link_of_a_lapsed_hold_is_expired_and_giving_the_address_again_starts_a_new_one(client, db, settings):
    _signup(client, "slow", "slow@example.org")
    first = _link(mail.outbox[0])
    given = AccountEmail.objects.get(user__username="slow").updated_at
    client.post("/account/", {"email": "slow@example.org"})  # a resend while held does not extend the hold
    resent = _link(mail.outbox[1])
    assert AccountEmail.objects.get(user__username="slow").updated_at == given
    _lapse_hold("slow", settings)

    for link in (first, resent):  # signed minutes ago, but mailed for a hold that has lapsed
        resp = client.get(link)
        assert resp.status_code == 400 and "expired" in resp.content.decode()
    assert not AccountEmail.objects.get(user__username="slow").is_verified

    assert client.post("/account/", {"email": "slow@example.org"}).status_code == 302  # nobody took it meanwhile
    assert client.get(_link(mail.outbox[2])).status_code == 200
    assert User.objects.get(username="slow").email == "slow@example.org"


@pytest.mark.parametrize("username", ["victim@example.org", "victim\uff20example.org"])
def test_a_user_name_with_an_at_sign_is_refused_as_invitations_read_it_as_an_address(client, db, username):
    resp = _signup(client, username, "someone@example.org")
    assert resp.status_code == 400
    assert "A user name cannot hold &quot;@&quot;" in resp.content.decode()
    assert not User.objects.filter(email__iexact="someone@example.org").exists()
