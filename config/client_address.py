"""The client's address behind a trusted reverse proxy: the one place that reads X-Forwarded-For.

Behind the TLS proxy (docs/deploy.md "Settings": TRUSTED_PROXY_COUNT) every request reaches gunicorn from the
proxy, so REMOTE_ADDR is the proxy's address for every visitor, and whatever counts per address (the sign-in lockout
of django-axes, the sign-up and e-mail rates of django-ratelimit, DRF's throttles) would count the whole world as one
address. ClientAddressMiddleware, first in MIDDLEWARE, sets REMOTE_ADDR to the client's address when
settings.TRUSTED_PROXY_COUNT (environment TRUSTED_PROXY_COUNT) is above 0, and every one of them reads REMOTE_ADDR:
django-axes without django-ipware falls back to it (axes.helpers.get_client_ip_address), django-ratelimit's `ip`
and `user_or_ip` keys read it (RATELIMIT_IP_META_KEY unset), DRF reads it with NUM_PROXIES = 0
(SimpleRateThrottle.get_ident; DRF's default, NUM_PROXIES None, would believe the whole header).

This is the remedy django-ratelimit documents ("Security considerations", "Client IP address", "Remediation",
"Middleware": a small middleware close to the top of the list that sets REMOTE_ADDR to the client's address,
https://django-ratelimit.readthedocs.io/en/stable/security.html), with the rule of DRF's NUM_PROXIES ("How clients
are identified", https://www.django-rest-framework.org/api-guide/throttling/): each of the N trusted proxies appends
the address it received the request from, so the client is the N-th entry from the right; entries further left
were written by the client and are never believed.

TRUSTED_PROXY_COUNT = 0 (the default) believes no header: a client could write any X-Forwarded-For. A request with
fewer entries than trusted proxies, or whose entry is not an IP address, keeps REMOTE_ADDR (the proxy's address).
"""
from __future__ import annotations

import ipaddress

from django.conf import settings


def forwarded_client(meta, trusted_proxies: int) -> str | None:
    """The client's address from `meta`'s X-Forwarded-For, the `trusted_proxies`-th entry from the right; None when
    no proxy is trusted, the header is missing or too short, or that entry is not an IP address."""
    if trusted_proxies <= 0:
        return None
    header = meta.get("HTTP_X_FORWARDED_FOR", "")
    entries = [entry.strip() for entry in header.split(",")] if header.strip() else []
    if len(entries) < trusted_proxies:
        return None
    try:
        return str(ipaddress.ip_address(entries[-trusted_proxies]))
    except ValueError:
        return None


class ClientAddressMiddleware:
    """Django middleware: REMOTE_ADDR = the client's address as the trusted proxies report it (forwarded_client)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        client = forwarded_client(request.META, settings.TRUSTED_PROXY_COUNT)
        if client:
            request.META["REMOTE_ADDR"] = client
        return self.get_response(request)
