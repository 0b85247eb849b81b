"""The sign-in lockout (django-axes) counts wrong passwords per address and per account from that address, never
per account alone: a flood of wrong passwords for someone's name from one address locks that address out, not the
account, which still signs in from its own address (login form and API token alike)."""
from __future__ import annotations

import pytest
from django.test import Client

ATTACKER = "203.0.113.66"
OWNER = "198.51.100.7"


pytestmark = pytest.mark.usefixtures("fresh_rates")  # the sign-up, e-mail and token rates start empty


def _flood(settings, username: str) -> Client:
    attacker = Client(REMOTE_ADDR=ATTACKER)
    for _ in range(settings.AXES_FAILURE_LIMIT + 5):
        attacker.post("/accounts/login/", {"username": username, "password": "wrong"})
    return attacker


def test_a_wrong_password_flood_from_one_address_does_not_lock_the_user_out_elsewhere(make_user, settings):
    make_user("target")
    attacker = _flood(settings, "target")
    owner = Client(REMOTE_ADDR=OWNER)
    resp = owner.post("/accounts/login/", {"username": "target", "password": "pw-target-Secure-123"})
    assert resp.status_code == 302 and "_auth_user_id" in owner.session
    # the flooding address is throttled: locked out even with the right password, and for any other account
    resp = attacker.post("/accounts/login/", {"username": "target", "password": "pw-target-Secure-123"})
    assert resp.status_code == 429 and "_auth_user_id" not in attacker.session
    make_user("bystander")
    resp = attacker.post("/accounts/login/", {"username": "bystander", "password": "pw-bystander-Secure-123"})
    assert resp.status_code == 429


def test_the_api_token_still_comes_from_the_users_own_address_after_a_flood(make_user, settings, fresh_rates):
    make_user("apitarget")
    _flood(settings, "apitarget")
    fresh_rates.clear()  # the token endpoint's own rate is per address too: only the lockout is under test here
    resp = Client(REMOTE_ADDR=OWNER).post("/api/v1/auth/token/", {"username": "apitarget",
                                                                  "password": "pw-apitarget-Secure-123"})
    assert resp.status_code == 200 and resp.json()["token"]
