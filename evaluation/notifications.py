"""Telling a team that one of its submissions finished or failed: an e-mail to every member with a (verified)
address, and an event to the team's webhook (submissions.webhooks; sent by evaluation.tasks.webhook_deliver).

Sent once per ending: the submission's `notified_at` is claimed with a guarded UPDATE (a message delivered twice
sends nothing), and a rescore clears it (pipeline.run_open), so its new ending is told again.
"""
from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.urls import reverse
from django.utils import timezone

from submissions.models import Submission, WebhookDelivery
from submissions.webhooks import delivery_open

from .selectors import run_latest

log = logging.getLogger(__name__)

#: Event names of the webhook (X-RG-Event) per ending status.
EVENTS = {Submission.Status.FINISHED: "submission.finished", Submission.Status.FAILED: "submission.failed"}


def submission_event(submission: Submission) -> dict:
    """The webhook body of a finished or failed submission (before `delivery` and `sent_at` are added):
    {"event", "submission": {"id", "url", "system", "team", "benchmark", "split", "status", "error", "created_at",
    "finished_at", "summary": {"overall": M, "by_language": {...}} or null}} with M of docs/scoring.md "Report
    schema"."""
    run = run_latest(submission=submission)
    return {"event": EVENTS[submission.status], "submission": {
        "id": submission.pk, "url": settings.SITE_URL + reverse("submissions:detail", args=[submission.pk]),
        "system": submission.system.name, "team": submission.system.team.name,
        "benchmark": submission.split.benchmark.name, "split": submission.split.name,
        "status": submission.status, "error": submission.error,
        "created_at": submission.created_at.isoformat(),
        "finished_at": submission.finished_at.isoformat() if submission.finished_at else None,
        "summary": run.summary if run and submission.status == Submission.Status.FINISHED else None}}


def _mail(submission: Submission, event: dict) -> int:
    recipients = sorted({u.email for u in submission.system.team.members.exclude(email="")})
    if not recipients:
        return 0
    info = event["submission"]
    if submission.status == Submission.Status.FINISHED and info["summary"]:
        overall = info["summary"]["overall"]
        scores = (f"Pass@1 {overall['pass_at_1']:.1%}, API Coverage {overall['ac']:.1%}, "
                  f"DSR {overall['dsr']:.1%} over {overall['tasks']} tasks")
        subject = f"Submission #{submission.pk} of {submission.system.name} finished: Pass@1 {overall['pass_at_1']:.1%}"
        text = f"Your submission #{submission.pk} of {submission.system.name} on {submission.split} finished.\n\n{scores}.\n"
    else:
        subject = f"Submission #{submission.pk} of {submission.system.name} failed"
        text = (f"The evaluation of your submission #{submission.pk} of {submission.system.name} on "
                f"{submission.split} could not run: {submission.error or 'no reason recorded'}\n\n"
                "Failed submissions do not count against your team's daily quota.\n")
    text += f"\nReport: {info['url']}\n\nYou get this e-mail as a member of the team {submission.system.team.name}.\n"
    return send_mail(f"[RepoGenesis Leaderboard] {subject}", text, None, recipients, fail_silently=False)


def submission_notify(*, submission_id: int) -> WebhookDelivery | None:
    """Tell the team that the submission finished or failed, once: the e-mail now, and the webhook delivery it
    opens (pending; returned for the caller to send). None when there is no webhook, the submission is not
    finished or failed, or it was already told."""
    submission = Submission.objects.select_related("system__team", "split__benchmark").filter(pk=submission_id).first()
    if submission is None or submission.status not in EVENTS:
        return None
    if not Submission.objects.filter(pk=submission_id, notified_at__isnull=True, status=submission.status).update(
            notified_at=timezone.now()):
        return None
    event = submission_event(submission)
    try:
        sent = _mail(submission, event)
    except Exception:  # a mail server down must not lose the webhook; the log says why
        log.exception("e-mail about submission %s could not be sent", submission_id)
        sent = 0
    log.info("submission %s %s: %s e-mail(s)", submission_id, submission.status, sent)
    return delivery_open(submission=submission, event=event["event"], payload=event)
