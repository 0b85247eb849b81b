"""The status page of a partial RepoGenesis Verified upload in Debian's Chromium (Playwright): the tasks missing from
the archive take one line, not a card each, so the page stays about a screen or two tall. The screenshot goes to
$TEXT_SHOTS (default var/test/text-shots/)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings

from tests.browser_kit import chromium_page
from tests.factories import finished_submission, import_repogenesis_verified

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_one_task_upload_to_verified_has_a_page_of_reasonable_height(live_server):
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    split = import_repogenesis_verified()
    first = split.tasks.order_by("name").first()
    submission = finished_submission(split=split, system_name="One Task Bot",
                                     scores={first.name: (first.tests_total, "passed", 1)})
    shots = Path(os.environ.get("TEXT_SHOTS") or Path(settings.VAR_DIR) / "text-shots")
    shots.mkdir(parents=True, exist_ok=True)
    with chromium_page(width=1280, height=1000) as page:
        page.goto(f"{live_server.url}/submissions/{submission.pk}/")
        page.screenshot(path=str(shots / "partial-verified-submission.png"), full_page=True)
        height = page.evaluate("document.documentElement.scrollHeight")
        print(f"page height: {height} px")
        assert page.locator(f"#task-{first.name}").count() == 1  # the evaluated task keeps its card
        assert height < 4000, height
