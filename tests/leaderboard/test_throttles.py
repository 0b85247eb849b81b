"""Password guessing and account farming are slow (issue 13, defect 6): the login form and the API token endpoint
lock an account or address out after repeated wrong passwords (django-axes), the token endpoint has a rate of its
own, and sign-ups are limited per address (the daily quota is a team's, so new accounts must not be free)."""
from __future__ import annotations

import pytest


pytestmark = pytest.mark.usefixtures("fresh_rates")  # the sign-up, e-mail and token rates start empty


def test_the_login_form_locks_out_after_repeated_wrong_passwords(make_user, client, settings):
    user, _ = make_user("victim")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        resp = client.post("/accounts/login/", {"username": "victim", "password": "wrong"})
        assert resp.status_code in (200, 429)
    resp = client.post("/accounts/login/", {"username": "victim", "password": "pw-victim-Secure-123"})
    assert resp.status_code == 429 and "Too many wrong passwords" in resp.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_right_password_before_the_limit_resets_the_count(make_user, client, settings):
    make_user("careful")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        client.post("/accounts/login/", {"username": "careful", "password": "wrong"})
    resp = client.post("/accounts/login/", {"username": "careful", "password": "pw-careful-Secure-123"})
    assert resp.status_code == 302 and "_auth_user_id" in client.session


def test_the_api_token_endpoint_is_rate_limited_and_shares_the_lockout(make_user, client, settings, fresh_rates):
    make_user("apiuser")
    answers = [client.post("/api/v1/auth/token/", {"username": "apiuser", "password": "wrong"}).status_code
               for _ in range(12)]
    limit = settings.AXES_FAILURE_LIMIT  # the failure that reaches the limit is already answered as a lockout
    assert answers[:limit - 1] == [400] * (limit - 1) and set(answers[limit - 1:]) == {429}
    fresh_rates.clear()  # past the rate: the lockout alone still refuses the right password
    resp = client.post("/api/v1/auth/token/", {"username": "apiuser", "password": "pw-apiuser-Secure-123"})
    assert resp.status_code == 429 and "token" not in resp.json()
    assert "Too many wrong passwords" in resp.json()["detail"]


def test_sign_ups_are_limited_per_address(client, db, settings):
    settings.SIGNUP_RATE = "3/h"
    codes = []
    for n in range(4):
        codes.append(client.post("/signup/", {"username": f"farm{n}", "email": f"farm{n}@example.org",
                                              "password1": "Very-Long-Pass-123",
                                              "password2": "Very-Long-Pass-123"}).status_code)
        client.logout()
    assert codes[:3] == [302, 302, 302] and codes[3] == 429
    from django.contrib.auth.models import User

    assert User.objects.filter(username__startswith="farm").count() == 3
