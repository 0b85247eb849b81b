"""Writes for agent endpoints: registering and removing a system's endpoint, and the client's limits.

Starting and executing an endpoint run (calling the agent, packing its answers) is evaluation's work
(evaluation.generation, evaluation.services.generation_start).
"""
from __future__ import annotations

import logging
import string

from django.conf import settings
from django.contrib.auth.models import User

from catalog.models import System

from ..models import AgentEndpoint
from ..services import SubmissionError
from .client import AgentLimits
from .crypto import secret_encrypt
from .guard import UrlRefused, check_url, parse_networks

log = logging.getLogger(__name__)
SECRET_MIN_LENGTH = 16
_SECRET_CHARS = set(string.ascii_letters + string.digits + string.punctuation)


class EndpointError(SubmissionError):
    """The endpoint or the run was refused; the message says why and what to do. Nothing was stored."""


def agent_limits() -> AgentLimits:
    """The client's limits from the AGENT_* settings."""
    return AgentLimits(deadline=settings.AGENT_TASK_DEADLINE_SECONDS, max_bytes=settings.AGENT_MAX_RESPONSE_BYTES,
                       attempts=settings.AGENT_RETRY_ATTEMPTS, backoff=settings.AGENT_RETRY_BACKOFF_SECONDS,
                       poll_interval=settings.AGENT_POLL_INTERVAL_SECONDS,
                       connect_timeout=settings.AGENT_CONNECT_TIMEOUT_SECONDS,
                       max_redirects=settings.AGENT_MAX_REDIRECTS,
                       allowed_networks=parse_networks(settings.AGENT_ALLOWED_NETWORKS))


# --- registration ---------------------------------------------------------------------------
def _check_secret(secret: str) -> None:
    if len(secret) < SECRET_MIN_LENGTH or len(secret) > 500:
        raise EndpointError(f"The secret must have {SECRET_MIN_LENGTH} to 500 characters "
                            "(e.g. the output of `openssl rand -hex 24`).")
    if not set(secret) <= _SECRET_CHARS:
        raise EndpointError("The secret may hold only printable ASCII characters without spaces.")


def endpoint_register(*, system: System, url: str, secret: str = "", user: User | None = None) -> AgentEndpoint:
    """Create or update the system's endpoint. The URL is checked now (scheme, credentials, resolved
    addresses) and again at every call. A blank `secret` keeps the registered one (required the first time).

    Raises EndpointError. The secret is stored encrypted; only its last 4 characters stay readable.
    """
    url = (url or "").strip()
    try:
        check_url(url, allowed_networks=agent_limits().allowed_networks)
    except UrlRefused as exc:
        raise EndpointError(f"The endpoint URL was refused: {exc}.") from exc
    secret = (secret or "").strip()
    endpoint = AgentEndpoint.objects.filter(system=system).first() or AgentEndpoint(system=system)
    if secret:
        _check_secret(secret)
        endpoint.secret_encrypted = secret_encrypt(secret)
        endpoint.secret_last4 = secret[-4:]
    elif not endpoint.secret_encrypted:
        raise EndpointError("Give a secret: the platform sends it as `Authorization: Bearer <secret>` so your "
                            "agent can refuse calls from anyone else.")
    endpoint.url = url
    endpoint.updated_by = user
    endpoint.save()
    log.info("agent endpoint of system %s set to %s (secret %s)", system.pk, url, endpoint.secret_hint)
    return endpoint


def endpoint_delete(*, system: System) -> bool:
    """Remove the system's endpoint (runs already generated stay). True when one was removed."""
    return AgentEndpoint.objects.filter(system=system).delete()[0] > 0


