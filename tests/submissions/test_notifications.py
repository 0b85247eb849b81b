"""Notifications (issue 13 "Lifecycle"): an e-mail to the team when a submission finishes or fails, and the team's
webhook: a signed JSON body, retries with backoff, a delivery log the team sees, the SSRF guard of the agent
endpoints, and no redirect ever followed.

The webhook receivers are real HTTP servers on 127.0.0.1 (allowed by AGENT_ALLOWED_NETWORKS, port by port); the
Celery tasks run eagerly (their retries too), sent when the ending transaction commits.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core import mail
from rest_framework.test import APIClient

from catalog.services import team_for_user
from config.celery import app as celery_app
from evaluation.notifications import submission_notify
from evaluation.pipeline import run_fail
from submissions.models import WebhookDelivery
from submissions.webhooks import webhook_register
from tests.factories import finished_submission

SECRET = "a-webhook-secret-of-32-characters"


class Receiver:
    """A webhook receiver answering each POST with the next of `answers` (status, headers), the last repeated."""

    def __init__(self, answers):
        self.answers, self.requests = list(answers), []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.requests.append((dict(self.headers), body))
                status, headers = receiver.answers[min(len(receiver.requests), len(receiver.answers)) - 1]
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receivers(settings):
    made = []

    def start(*answers) -> Receiver:
        receiver = Receiver(answers or [(200, {})])
        made.append(receiver)
        settings.AGENT_ALLOWED_NETWORKS = [f"127.0.0.1:{r.port}" for r in made]
        return receiver

    yield start
    for receiver in made:
        receiver.close()


@pytest.fixture
def eager(settings):
    """Celery tasks run in-process (retries included, without their countdown)."""
    settings.WEBHOOK_RETRY_BACKOFF_SECONDS = 0
    celery_app.conf["CELERY_TASK_ALWAYS_EAGER"] = True  # the app reads Django's settings under its CELERY_ prefix
    yield
    celery_app.conf["CELERY_TASK_ALWAYS_EAGER"] = False


@pytest.fixture
def team(make_user):
    user, token = make_user("alice")
    user.email = "alice@example.org"
    user.save()
    team = team_for_user(user=user)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return team, user, api


def _finish(demo_split, team, capture):
    with capture(execute=True):
        return finished_submission(split=demo_split, system_name="Notified Agent", team=team,
                                   scores={"TodoList": (17, "passed", 1)})


def test_a_finished_submission_mails_the_team_and_posts_a_signed_event(team, demo_split, receivers, eager,
                                                                       django_capture_on_commit_callbacks):
    team_row, user, _ = team
    receiver = receivers((200, {}))
    webhook_register(team=team_row, user=user, url=receiver.url, secret=SECRET)

    submission = _finish(demo_split, team_row, django_capture_on_commit_callbacks)

    [message] = mail.outbox
    assert message.to == ["alice@example.org"]
    assert f"Submission #{submission.pk} of Notified Agent finished" in message.subject
    assert "Pass@1" in message.body and f"/submissions/{submission.pk}/" in message.body
    [(headers, body)] = receiver.requests
    expected = "sha256=" + hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(headers["X-RG-Signature"], expected)
    assert headers["X-RG-Event"] == "submission.finished" and headers["Content-Type"] == "application/json"
    event = json.loads(body)
    assert event["event"] == "submission.finished" and event["submission"]["id"] == submission.pk
    assert event["submission"]["summary"]["overall"]["pass_at_1"] > 0
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.http_status) == ("delivered", 1, 200)


def test_a_failed_submission_mails_why_and_posts_submission_failed(team, demo_split, receivers, eager,
                                                                   django_capture_on_commit_callbacks):
    team_row, user, _ = team
    receiver = receivers((204, {}))
    webhook_register(team=team_row, user=user, url=receiver.url, secret=SECRET)
    submission = finished_submission(split=demo_split, system_name="Failing Agent", team=team_row, scores={})
    run = submission.runs.get()
    run.status = "running"
    run.save()
    from submissions.models import Submission
    Submission.objects.filter(pk=submission.pk).update(status="running", notified_at=None)

    with django_capture_on_commit_callbacks(execute=True):
        run_fail(run=run, error="the archive could not be unpacked")

    [message] = mail.outbox
    assert "failed" in message.subject and "the archive could not be unpacked" in message.body
    assert json.loads(receiver.requests[0][1])["event"] == "submission.failed"


def test_a_webhook_that_fails_is_retried_with_backoff_and_every_attempt_logged(team, demo_split, receivers, eager,
                                                                              django_capture_on_commit_callbacks):
    team_row, user, api = team
    receiver = receivers((500, {}), (503, {}), (200, {}))
    webhook_register(team=team_row, user=user, url=receiver.url, secret=SECRET)

    _finish(demo_split, team_row, django_capture_on_commit_callbacks)

    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts) == ("delivered", 3)
    assert [a["status"] for a in delivery.attempts_log] == [500, 503, 200]
    ids = {h["X-RG-Delivery"] for h, _ in receiver.requests}
    assert ids == {str(delivery.pk)}  # one event, the same delivery id on every retry
    log = api.get(f"/api/v1/teams/{team_row.pk}/webhook/deliveries/").json()
    assert log["count"] == 1 and log["results"][0]["attempts"] == 3 and log["results"][0]["status"] == "delivered"


def test_a_webhook_that_never_answers_2xx_fails_after_the_last_attempt(team, demo_split, receivers, eager, settings,
                                                                       django_capture_on_commit_callbacks):
    team_row, user, _ = team
    settings.WEBHOOK_MAX_ATTEMPTS = 3
    receiver = receivers((500, {}))
    webhook_register(team=team_row, user=user, url=receiver.url, secret=SECRET)

    _finish(demo_split, team_row, django_capture_on_commit_callbacks)

    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.error) == ("failed", 3, "HTTP 500")
    assert len(receiver.requests) == 3


def test_a_redirect_is_never_followed(team, demo_split, receivers, eager, settings,
                                      django_capture_on_commit_callbacks):
    team_row, user, _ = team
    settings.WEBHOOK_MAX_ATTEMPTS = 2
    inside = receivers((200, {}))  # stands for the site itself (allowed too, so only the no-redirect rule holds)
    hook = receivers((302, {"Location": f"http://127.0.0.1:{inside.port}/admin/"}))
    webhook_register(team=team_row, user=user, url=hook.url, secret=SECRET)

    _finish(demo_split, team_row, django_capture_on_commit_callbacks)

    assert inside.requests == []
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == "failed" and "redirects are never followed" in delivery.error


@pytest.mark.parametrize("url, why", [
    ("http://127.0.0.1:8000/hook", "loopback"),
    ("http://169.254.169.254/latest/meta-data/", "metadata"),
    ("http://10.0.0.7/hook", "private"),
    ("file:///etc/passwd", "only http"),
])
def test_a_webhook_url_must_pass_the_ssrf_guard(team, url, why):
    team_row, _, api = team
    resp = api.put(f"/api/v1/teams/{team_row.pk}/webhook/", {"url": url, "secret": SECRET}, format="json")
    assert resp.status_code == 400 and why in resp.json()["detail"]
    assert not WebhookDelivery.objects.exists() and api.get(f"/api/v1/teams/{team_row.pk}/webhook/").status_code == 404


def test_a_url_that_stops_passing_the_guard_is_not_called(team, demo_split, receivers, eager, settings,
                                                          django_capture_on_commit_callbacks):
    team_row, user, _ = team
    receiver = receivers((200, {}))
    webhook_register(team=team_row, user=user, url=receiver.url, secret=SECRET)
    settings.AGENT_ALLOWED_NETWORKS = []  # the operator closed the loopback exception since

    _finish(demo_split, team_row, django_capture_on_commit_callbacks)

    assert receiver.requests == []
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == "failed" and delivery.attempts == 1 and "loopback" in delivery.error


def test_the_team_is_told_once_per_ending(team, demo_split):
    team_row, _, _ = team
    submission = finished_submission(split=demo_split, system_name="Once Agent", team=team_row, scores={})
    submission_notify(submission_id=submission.pk)
    submission_notify(submission_id=submission.pk)  # the message delivered twice
    assert len(mail.outbox) == 1


def test_the_delivery_log_is_the_teams_only(team, demo_split, receivers, eager, make_user, client,
                                            django_capture_on_commit_callbacks):
    team_row, user, _ = team
    receiver = receivers((200, {}))
    webhook_register(team=team_row, user=user, url=receiver.url, secret=SECRET)
    _finish(demo_split, team_row, django_capture_on_commit_callbacks)

    client.force_login(user)
    page = client.get(f"/teams/{team_row.pk}/").content.decode()
    assert "submission.finished" in page and "delivered" in page and SECRET not in page
    other, token = make_user("mallory")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get(f"/api/v1/teams/{team_row.pk}/webhook/deliveries/").status_code == 403
    client.force_login(other)
    assert client.get(f"/teams/{team_row.pk}/").status_code == 403
