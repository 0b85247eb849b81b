"""Behind the TLS proxy every request comes from the proxy's address: with TRUSTED_PROXY_COUNT=1 the visitor's address
is the proxy's X-Forwarded-For (config.client_address), so the sign-in lockout (django-axes), the sign-up rate
(django-ratelimit) and the API token's throttle (DRF) count per visitor, not for the whole world at once; with 0 the
header is never believed, so a client cannot write its way out of a lockout or a rate."""
from __future__ import annotations

import pytest
from django.test import Client, RequestFactory

from config.client_address import ClientAddressMiddleware

PROXY = "127.0.0.1"  # nginx on the web host: the peer of every request
A = "203.0.113.66"
B = "198.51.100.7"


def _through_proxy(visitor: str) -> Client:
    """A visitor's browser as the site sees it behind nginx's `proxy_set_header X-Forwarded-For $remote_addr`."""
    return Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=visitor)


def _wrong_passwords(client: Client, settings, username: str, **extra) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT + 2):
        client.post("/accounts/login/", {"username": username, "password": "wrong"}, **extra)


def test_behind_one_proxy_a_flood_locks_out_its_visitor_only(make_user, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    make_user("target")
    attacker = _through_proxy(A)
    _wrong_passwords(attacker, settings, "target")
    resp = attacker.post("/accounts/login/", {"username": "target", "password": "pw-target-Secure-123"})
    assert resp.status_code == 429 and "_auth_user_id" not in attacker.session
    owner = _through_proxy(B)  # the same proxy, another visitor
    resp = owner.post("/accounts/login/", {"username": "target", "password": "pw-target-Secure-123"})
    assert resp.status_code == 302 and "_auth_user_id" in owner.session


def test_without_a_trusted_proxy_a_spoofed_header_does_not_dodge_the_lockout(make_user, settings):
    settings.TRUSTED_PROXY_COUNT = 0
    make_user("target")
    attacker = Client(REMOTE_ADDR=A)
    for n in range(settings.AXES_FAILURE_LIMIT + 2):  # a new made-up address in every request
        attacker.post("/accounts/login/", {"username": "target", "password": "wrong"},
                      HTTP_X_FORWARDED_FOR=f"192.0.2.{n + 1}")
    resp = attacker.post("/accounts/login/", {"username": "target", "password": "pw-target-Secure-123"},
                         HTTP_X_FORWARDED_FOR=B)
    assert resp.status_code == 429 and "_auth_user_id" not in attacker.session
    owner = Client(REMOTE_ADDR=B)  # the header was ignored: B was never counted
    resp = owner.post("/accounts/login/", {"username": "target", "password": "pw-target-Secure-123"})
    assert resp.status_code == 302


def _sign_up(client: Client, n: int, **extra) -> int:
    return client.post("/signup/", {"username": f"farm{n}", "email": f"farm{n}@example.org",
                                    "password1": "Very-Long-Pass-123", "password2": "Very-Long-Pass-123"},
                       **extra).status_code


def test_behind_one_proxy_the_sign_up_rate_and_the_token_throttle_count_per_visitor(make_user, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    settings.SIGNUP_RATE = "2/h"
    assert [_sign_up(_through_proxy(A), n) for n in range(3)] == [302, 302, 429]
    assert _sign_up(_through_proxy(B), 3) == 302
    make_user("apiuser")
    # GET: the throttle (AUTH_TOKEN_RATE, 10/min) counts every request, and no password is tried (no lockout)
    answers = [_through_proxy(A).get("/api/v1/auth/token/").status_code for _ in range(11)]
    assert answers == [405] * 10 + [429]
    resp = _through_proxy(B).post("/api/v1/auth/token/", {"username": "apiuser", "password": "pw-apiuser-Secure-123"})
    assert resp.status_code == 200 and resp.json()["token"]


def test_without_a_trusted_proxy_a_spoofed_header_does_not_dodge_the_rates(db, settings):
    settings.TRUSTED_PROXY_COUNT = 0
    settings.SIGNUP_RATE = "2/h"
    codes = [_sign_up(Client(REMOTE_ADDR=A), n, HTTP_X_FORWARDED_FOR=f"192.0.2.{n + 1}") for n in range(3)]
    assert codes == [302, 302, 429]
    answers = [Client(REMOTE_ADDR=A).get("/api/v1/auth/token/", HTTP_X_FORWARDED_FOR=f"192.0.2.{n + 1}").status_code
               for n in range(11)]
    assert answers == [405] * 10 + [429]  # DRF's default (NUM_PROXIES None) took each header for a new client


@pytest.mark.parametrize("count, header, seen", [
    (0, "192.0.2.9", PROXY),  # nothing trusted: the header is the client's own writing
    (1, None, PROXY),  # no header (a health check on the web host): the peer
    (1, A, A),  # nginx replaced the header with the address it saw
    (1, f"192.0.2.9, {A}", A),  # a proxy that appends: the client's made-up entry is left of it
    (2, f"192.0.2.9, {A}, 10.0.0.2", A),  # a load balancer, then nginx, both appending
    (2, A, PROXY),  # fewer entries than proxies: not believed
    (1, "unknown", PROXY),  # not an address
    (1, f"{A}:4711", PROXY),  # nor this
    (1, " 2001:DB8::1 ", "2001:db8::1"),  # IPv6, written the one way
])
def test_the_address_is_the_entry_as_far_from_the_right_as_there_are_trusted_proxies(settings, count, header, seen):
    settings.TRUSTED_PROXY_COUNT = count
    extra = {"HTTP_X_FORWARDED_FOR": header} if header is not None else {}
    request = RequestFactory(REMOTE_ADDR=PROXY).get("/", **extra)
    addresses = []
    ClientAddressMiddleware(lambda req: addresses.append(req.META["REMOTE_ADDR"]))(request)
    assert addresses == [seen]
