"""The lifecycle pages in Debian's Chromium (Playwright): the queue position on a queued submission's page, its
Cancel button, "N of M submissions left today" on the submit page, and the team page with its invitation form and
webhook log, all under the site's Content-Security-Policy (no console error). Screenshots go to
var/test/screenshots/ for a human to look at."""
import os
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from catalog.services import system_create, team_for_user
from evaluation.models import TaskResult
from evaluation.services import submission_create
from tests.conftest import import_demo
from tests.factories import finished_submission
from tests.browser_kit import CHROMIUM, FLAGS

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_queue_cancel_quota_and_team_pages_in_a_browser(live_server, make_user, demo_zip, tmp_path):
    from playwright.sync_api import sync_playwright

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs an event loop in this thread
    split = import_demo().splits.get(name="verified")
    history = finished_submission(split=split, system_name="History", scores={})
    TaskResult.objects.filter(run__submission=history).update(durations={"install": 20.0, "start": 5.0, "test": 5.0})
    other, _ = make_user("other")
    system_create(team=team_for_user(user=other), name="Ahead Agent")
    submission_create(system=other.teams.get().systems.get(), split=split, user=other, enqueue=False,
                      upload=SimpleUploadedFile("b.zip", demo_zip("agent-beta")))
    user, _ = make_user("alice")
    system = system_create(team=team_for_user(user=user), name="Browser Agent")
    mine = submission_create(system=system, split=split, user=user, enqueue=False,
                             upload=SimpleUploadedFile("a.zip", demo_zip("agent-alpha")))
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    shots = Path(settings.VAR_DIR) / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        context = browser.new_context(viewport={"width": 1280, "height": 1000})
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}])
        page = context.new_page()
        errors = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)

        page.goto(f"{live_server.url}/submissions/{mine.pk}/")
        queue = page.locator("#queue").inner_text()
        assert "Position 2 in the queue" in queue and "estimated start around" in queue
        page.screenshot(path=str(shots / "lifecycle-queued.png"), full_page=True)
        page.click("#cancel-form button")
        page.wait_for_selector("#cancelled")
        assert page.locator("#status").inner_text() == "cancelled"
        page.wait_for_timeout(3000)  # the page stays put: nothing left to follow, so no reload drops the message
        assert "was cancelled; it does not count" in page.content()
        page.screenshot(path=str(shots / "lifecycle-cancelled.png"), full_page=True)

        page.goto(f"{live_server.url}/submit/")
        assert "5 of 5 submissions left today" in page.locator("#quota").inner_text()  # the cancel refunded it
        page.screenshot(path=str(shots / "lifecycle-submit.png"), full_page=True)

        page.goto(f"{live_server.url}/teams/{system.team_id}/")
        page.fill("#invite-user", "other")
        page.click("#members button.primary")
        assert "other was invited" in page.content()
        page.screenshot(path=str(shots / "lifecycle-team.png"), full_page=True)
        browser.close()
    assert errors == [], errors
