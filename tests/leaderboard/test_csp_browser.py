"""The site under its Content-Security-Policy in Debian's Chromium (Playwright): every page works (charts drawn,
the matrix's cells clickable, the status page polling, the API docs rendered) and the browser reports no policy
violation and no script error. Screenshots go to var/test/screenshots/csp-*.png."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser_kit import CHROMIUM, FLAGS
from django.conf import settings

from tests.conftest import import_demo
from tests.factories import finished_submission

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]
# Records every violation the page reports (the event fires for blocked inline scripts, eval, other origins).
WATCH = """window.__csp = []; document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline")); });"""


@pytest.fixture
def browser_page():
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is not installed: run `WITH_BROWSER=1 scripts/bootstrap.sh`")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.add_init_script(WATCH)
        problems: list[str] = []
        page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
                if m.type == "error" or "Content Security Policy" in m.text else None)
        page.on("pageerror", lambda e: problems.append(f"script error: {e}"))
        page.problems = problems
        yield page
        browser.close()


def _seed():
    from django.contrib.auth.models import User
    from django.core.files.uploadedfile import SimpleUploadedFile

    from catalog.services import team_for_user
    from evaluation.services import submission_create
    from submissions.archives import zip_folders

    split = import_demo().splits.get(name="verified")
    user = User.objects.create_user("cspuser", password="pw-cspuser-Secure-123")
    team = team_for_user(user=user)
    a = finished_submission(split=split, system_name="Policy A", team=team,
                            scores={"TodoList": (17, "passed", 1), "InventoryService": (15, "passed", 1)})
    finished_submission(split=split, system_name="Policy B", team=team,
                        scores={"Notes": (10, "tests_failed", 1), "InventoryService": (3, "tests_failed", 1)})
    folder = Path(settings.VAR_DIR) / "csp-queued"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "start.sh").write_text("#!/bin/sh\necho queued\n")
    queued = submission_create(system=a.system, split=split, upload=SimpleUploadedFile(
        "q.zip", zip_folders({"Notes": folder})), user=None, enqueue=False)
    return a, queued


def test_every_page_works_under_the_policy_with_no_violation(live_server, browser_page):
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs an event loop in this thread
    page = browser_page
    done, queued = _seed()
    shots = Path(settings.VAR_DIR) / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    base = live_server.url

    def visit(path: str, ready: str, shot: str) -> None:
        page.problems.clear()
        page.goto(base + path)
        page.wait_for_selector(ready, timeout=20_000)
        page.wait_for_timeout(300)  # late violations (a script run after load) are reported too
        assert page.evaluate("window.__csp") == [], (path, page.evaluate("window.__csp"))
        document_404 = "status of 404" if path == "/no-such-page/" else None  # the page's own status, not a resource
        assert [p for p in page.problems if not (document_404 and document_404 in p)] == [], (path, page.problems)
        page.screenshot(path=str(shots / f"csp-{shot}.png"), full_page=True)

    visit("/signup/", "form input[name=email]", "signup")
    visit("/accounts/password_reset/", "form input[name=email]", "password-reset")
    visit("/accounts/login/", "form input[name=username]", "login")
    page.fill("input[name=username]", "cspuser")
    page.fill("input[name=password]", "pw-cspuser-Secure-123")
    page.click("form.card button.primary")
    page.wait_for_url(base + "/")

    visit("/", "#radar-python .main-svg", "home")
    page.click("button[data-tab=java]")
    page.wait_for_selector("#radar-java .main-svg")
    if page.locator("#board-filters").get_attribute("open") is None:
        page.click("#board-filters summary")
    page.fill("#board-filters input[name=q]", "Policy A")
    with page.expect_navigation():
        page.click("#board-filters button.primary")
    assert "q=Policy+A" in page.url
    assert "language=java" in page.url  # board-filters.js kept the tab
    assert page.evaluate("window.__csp") == [] and page.problems == []

    visit(f"/submissions/{done.pk}/", "#outcomes .main-svg", "submission")
    visit(f"/systems/{done.system.pk}/", "#breakdown .main-svg", "system")
    visit("/matrix/", "#matrix-chart .main-svg", "matrix")
    with page.expect_navigation():
        page.locator("#matrix-chart .nsewdrag").first.click(position={"x": 20, "y": 15})  # a cell opens its result
    assert "/submissions/" in page.url

    with page.expect_response(lambda r: r.url.endswith(f"/submissions/{queued.pk}/status.json")) as polled:
        visit(f"/submissions/{queued.pk}/", "#progress-card", "queued")
    assert polled.value.ok and page.locator("#status").inner_text() == "queued"

    visit("/tasks/", "table", "tasks")
    visit("/compare/", "h1", "compare")
    visit("/data/", "h1", "data")
    visit("/account/", "#account-email", "account")
    # Redoc's vendor logo (the one image the docs page may load from elsewhere; this machine may be offline)
    page.route("https://cdn.redoc.ly/**", lambda route: route.fulfill(
        status=200, content_type="image/svg+xml", body='<svg xmlns="http://www.w3.org/2000/svg"/>'))
    visit("/api/docs/", "h1:has-text('RepoGenesis Leaderboard API')", "api-docs")
    visit("/no-such-page/", "header.top nav", "404")
