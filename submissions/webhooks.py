"""Team webhooks: registering the URL and secret, signing an event, delivering it once (the retries with backoff
are the Celery task evaluation.tasks.webhook_deliver), and the delivery log.

What a team's server receives (docs/lifecycle.md "Notifications"):

    POST <url>
    Content-Type: application/json
    User-Agent: RepoGenesis-Leaderboard-Webhook/1
    X-RG-Event: submission.finished            (or submission.failed)
    X-RG-Delivery: <delivery id>               (the same on every retry of one event)
    X-RG-Signature: sha256=<hex HMAC-SHA256 of the raw body under the team's secret>

    {"event": ..., "delivery": id, "sent_at": ISO 8601, "submission": {...}}

The URL passes the agent endpoints' SSRF guard (submissions.agents.guard.check_url, AGENT_ALLOWED_NETWORKS) when
it is registered and again before every attempt, and the request goes to the address the guard checked (no second
DNS lookup). Redirects are never followed: a 3xx answer is a failed attempt, so no redirect can lead into the site
or another local service. Only the answer's status counts: its body is never read (so never decoded, whatever
Content-Encoding it declares), and one attempt, connecting, sending and the status line with the headers, ends within
WEBHOOK_TIMEOUT_SECONDS of wall-clock time, however slowly the receiver trickles its answer.
"""
from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import string
import time
from dataclasses import dataclass

import httpx
from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import F
from django.utils import timezone

from catalog.models import Team
from catalog.selectors import user_in_team

from .agents.crypto import SecretUnreadable, secret_decrypt, secret_encrypt
from .agents.guard import UrlRefused, check_url, parse_networks
from .models import Submission, TeamWebhook, WebhookDelivery
from .services import SubmissionError

log = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-RG-Signature"
USER_AGENT = "RepoGenesis-Leaderboard-Webhook/1"
SECRET_MIN_LENGTH = 16
_SECRET_CHARS = set(string.ascii_letters + string.digits + string.punctuation)


class WebhookError(SubmissionError):
    """The webhook was refused; the message says why and what to do. Nothing was stored."""


def signature(secret: str, body: bytes) -> str:
    """The X-RG-Signature value of `body`: "sha256=" + hex HMAC-SHA256 under `secret` (verify it with a
    constant-time comparison, e.g. hmac.compare_digest)."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def _check_member(team: Team, user: User) -> None:
    if not user_in_team(user=user, team=team):
        raise PermissionError(f"only members of {team.name} can change its webhook")


def _guard(url: str):
    return check_url(url, allowed_networks=parse_networks(settings.AGENT_ALLOWED_NETWORKS))


def webhook_register(*, team: Team, user: User, url: str, secret: str = "") -> TeamWebhook:
    """Create or update the team's webhook. The URL must pass the SSRF guard now (and passes it again at every
    delivery); a blank `secret` keeps the registered one (required the first time: 16 to 500 printable ASCII
    characters). Raises PermissionError for a non-member and WebhookError naming what was wrong."""
    _check_member(team, user)
    url = (url or "").strip()
    try:
        _guard(url)
    except UrlRefused as exc:
        raise WebhookError(f"The webhook URL was refused: {exc}.") from exc
    hook = TeamWebhook.objects.filter(team=team).first() or TeamWebhook(team=team)
    secret = (secret or "").strip()
    if secret:
        if not SECRET_MIN_LENGTH <= len(secret) <= 500 or not set(secret) <= _SECRET_CHARS:
            raise WebhookError(f"The secret must have {SECRET_MIN_LENGTH} to 500 printable ASCII characters without "
                               "spaces (e.g. the output of `openssl rand -hex 24`).")
        hook.secret_encrypted, hook.secret_last4 = secret_encrypt(secret), secret[-4:]
    elif not hook.secret_encrypted:
        raise WebhookError("Give a secret: every delivery is signed with it (header X-RG-Signature), so your server "
                           "can tell our calls from anyone else's.")
    hook.url, hook.updated_by, hook.is_active = url, user, True
    hook.save()
    log.info("webhook of team %s set to %s by %s", team.pk, url, user.username)
    return hook


def webhook_remove(*, team: Team, user: User) -> bool:
    """Remove the team's webhook (its delivery log stays). True when there was one. Raises PermissionError."""
    _check_member(team, user)
    return TeamWebhook.objects.filter(team=team).delete()[0] > 0


def deliveries_of(*, team: Team, user: User):
    """The team's delivery log, newest first (a queryset). Raises PermissionError for a non-member."""
    if not user_in_team(user=user, team=team):
        raise PermissionError(f"only members of {team.name} can read its webhook deliveries")
    return WebhookDelivery.objects.filter(team=team).select_related("submission")


def delivery_open(*, submission: Submission, event: str, payload: dict) -> WebhookDelivery | None:
    """Record a pending delivery of `event` for the submission's team, or None when the team has no active
    webhook. The caller sends it (evaluation.tasks.webhook_deliver)."""
    hook = TeamWebhook.objects.filter(team=submission.system.team, is_active=True).first()
    if hook is None:
        return None
    return WebhookDelivery.objects.create(team=hook.team, submission=submission, event=event, url=hook.url,
                                          payload=payload)


@dataclass(frozen=True)
class Attempt:
    """What one delivery attempt did: `done` (no retry: delivered, or refused for good), `delivered`, and the
    entry appended to the delivery's log."""

    done: bool
    delivered: bool
    entry: dict


def _post(url: str, body: bytes, headers: dict[str, str]) -> tuple[int | None, str]:
    """POST `body` to the guard-checked address of `url` without following redirects: (HTTP status, error; "" when
    delivered).

    The whole exchange (connect, send, the status line and headers) ends within WEBHOOK_TIMEOUT_SECONDS of
    wall-clock time: httpx's own timeouts bound each read, not their sum, so a receiver trickling one byte at a time
    would stretch them without end. The answer's body is never read: nothing is decoded, whatever Content-Encoding it
    declares. Raises UrlRefused (the guard), TimeoutError (past the deadline) and httpx.HTTPError (connection
    errors, an answer that is not HTTP)."""
    target = _guard(url)  # again now: the name may resolve elsewhere than at registration
    pinned = httpx.URL(target.url).copy_with(host=target.address, port=target.port)
    default_port = 443 if target.scheme == "https" else 80
    host = f"[{target.host}]" if ":" in target.host else target.host
    headers = {**headers, "Host": host if target.port == default_port else f"{host}:{target.port}",
               "Accept-Encoding": "identity"}
    extensions = {"sni_hostname": target.host} if target.scheme == "https" else {}
    status = asyncio.run(_exchange(pinned, headers, body, extensions, float(settings.WEBHOOK_TIMEOUT_SECONDS)))
    if 200 <= status < 300:
        return status, ""
    if 300 <= status < 400:
        return status, f"HTTP {status}: redirects are never followed; register the final URL"
    return status, f"HTTP {status}"


async def _exchange(url: httpx.URL, headers: dict[str, str], body: bytes, extensions: dict, seconds: float) -> int:
    """The status of one POST, all of it within `seconds` of wall-clock time (asyncio.timeout cancels whatever step
    is under way and the connection is closed); the body of the answer is left unread."""
    async with asyncio.timeout(seconds):
        async with httpx.AsyncClient(trust_env=False, follow_redirects=False, timeout=httpx.Timeout(seconds)) as client:
            request = client.build_request("POST", url, headers=headers, content=body, extensions=extensions)
            response = await client.send(request, stream=True)
            await response.aclose()
            return response.status_code


def delivery_attempt(*, delivery_id: int, max_attempts: int | None = None) -> Attempt:
    """Send a pending delivery once, signed with the team's current secret, and log the attempt on it.

    A 2xx answer delivers it. A refused URL, a removed webhook or an unreadable secret fail it for good; anything
    else (a connection error, no status line and headers within WEBHOOK_TIMEOUT_SECONDS of wall-clock time, a 3xx,
    4xx or 5xx answer) fails the attempt, and the delivery fails once `max_attempts` (default WEBHOOK_MAX_ATTEMPTS)
    are used. A delivery no longer pending is not sent again (done=True). Never raises for what the receiver does;
    one call takes at most about WEBHOOK_TIMEOUT_SECONDS (seconds) plus a DNS lookup."""
    max_attempts = max_attempts or settings.WEBHOOK_MAX_ATTEMPTS
    delivery = WebhookDelivery.objects.filter(pk=delivery_id, status=WebhookDelivery.Status.PENDING).first()
    if delivery is None:
        return Attempt(True, False, {})
    hook = TeamWebhook.objects.filter(team_id=delivery.team_id, is_active=True).first()
    body = json.dumps({**delivery.payload, "delivery": delivery.pk, "sent_at": timezone.now().isoformat()},
                      sort_keys=True).encode()
    started, status, final = time.monotonic(), None, False
    try:
        if hook is None:
            raise UrlRefused("the team's webhook was removed")
        secret = secret_decrypt(hook.secret_encrypted)
        status, error = _post(hook.url, body, {
            "Content-Type": "application/json", "User-Agent": USER_AGENT, "X-RG-Event": delivery.event,
            "X-RG-Delivery": str(delivery.pk), SIGNATURE_HEADER: signature(secret, body)})
    except (UrlRefused, SecretUnreadable) as exc:
        error, final = f"not sent: {exc}", True
    except (httpx.TimeoutException, TimeoutError):
        error = (f"no answer within {settings.WEBHOOK_TIMEOUT_SECONDS:g} s (the status line and headers must arrive "
                 "within that time in all)")
    except httpx.HTTPError as exc:
        error = f"connection error ({type(exc).__name__})"
    entry = {"at": timezone.now().isoformat(), "status": status, "seconds": round(time.monotonic() - started, 3),
             "error": error[:300]}
    delivered = not error
    attempts = delivery.attempts + 1
    done = delivered or final or attempts >= max_attempts
    new_status = (WebhookDelivery.Status.DELIVERED if delivered else
                  WebhookDelivery.Status.FAILED if done else WebhookDelivery.Status.PENDING)
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        attempts=F("attempts") + 1, attempts_log=[*delivery.attempts_log, entry], http_status=status,
        error=error[:500], status=new_status, delivered_at=timezone.now() if delivered else None)
    log.info("webhook delivery %s (%s) attempt %s: %s", delivery.pk, delivery.event, attempts,
             "delivered" if delivered else error)
    return Attempt(done, delivered, entry)
