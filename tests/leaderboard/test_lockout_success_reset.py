"""A successful sign-in clears that account's own wrong passwords from the address, never the address's count of
wrong passwords for other accounts (leaderboard.signin_lockout): otherwise an attacker guessing at someone's
password resets the address's lockout by signing in to an account of their own (or by signing up, which signs the
new account in) just before the limit, and guesses on without end."""
from __future__ import annotations

import pytest
from django.test import Client

ATTACKER = "203.0.113.77"
PASSWORD = "pw-{}-Secure-123"


pytestmark = pytest.mark.usefixtures("fresh_rates")  # the sign-up, e-mail and token rates start empty


def _guess(client: Client, username: str, times: int) -> list[int]:
    return [client.post("/accounts/login/", {"username": username, "password": "wrong"}).status_code
            for _ in range(times)]


def test_signing_in_to_ones_own_account_does_not_clear_the_addresss_guesses_at_another(make_user, settings):
    make_user("thr1")
    make_user("mallory")
    attacker = Client(REMOTE_ADDR=ATTACKER)
    codes = []
    for _ in range(3):
        codes += _guess(attacker, "thr1", settings.AXES_FAILURE_LIMIT - 1)
        attacker.post("/accounts/login/", {"username": "mallory", "password": PASSWORD.format("mallory")})
        attacker.logout()
    assert 429 in codes, codes  # the address reached the limit in the second round
    resp = attacker.post("/accounts/login/", {"username": "thr1", "password": PASSWORD.format("thr1")})
    assert resp.status_code == 429 and "_auth_user_id" not in attacker.session


def test_a_sign_up_does_not_clear_the_addresss_guesses(make_user, settings):
    make_user("thr2")
    attacker = Client(REMOTE_ADDR=ATTACKER)
    _guess(attacker, "thr2", settings.AXES_FAILURE_LIMIT - 1)
    resp = attacker.post("/signup/", {"username": "fresh1", "email": "fresh1@example.org",
                                      "password1": "Very-Long-Pass-123", "password2": "Very-Long-Pass-123"})
    assert resp.status_code == 302
    attacker.logout()
    assert _guess(attacker, "thr2", 2)[-1] == 429


def test_a_right_password_clears_the_accounts_own_wrong_passwords(make_user, settings):
    make_user("typo")
    client = Client(REMOTE_ADDR=ATTACKER)
    for _ in range(3):
        assert 429 not in _guess(client, "typo", settings.AXES_FAILURE_LIMIT - 1)
        resp = client.post("/accounts/login/", {"username": "typo", "password": PASSWORD.format("typo")})
        assert resp.status_code == 302
        client.logout()
