"""Long texts in Debian's Chromium (Playwright): they wrap inside the page instead of stretching it. Screenshots go
to $TEXT_SHOTS (default var/test/text-shots/)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings

from catalog.models import DESCRIPTION_MAX_LENGTH, Team
from catalog.services import system_create
from tests.browser_kit import chromium_page

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _shots() -> Path:
    shots = Path(os.environ.get("TEXT_SHOTS") or Path(settings.VAR_DIR) / "text-shots")
    shots.mkdir(parents=True, exist_ok=True)
    return shots


def _overflow(page) -> int:
    """How many pixels the page is wider than its viewport (0: nothing sticks out)."""
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def test_a_long_description_wraps_on_the_system_page(live_server):
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    system = system_create(team=Team.objects.create(name="wordy"), name="Wordy Agent", base_model="m" * 100,
                           description="x" * DESCRIPTION_MAX_LENGTH)
    with chromium_page(width=800, height=900) as page:
        page.goto(f"{live_server.url}/systems/{system.pk}/")
        page.screenshot(path=str(_shots() / "long-description.png"), full_page=True)
        assert _overflow(page) == 0
        box = page.locator(".sysdesc").bounding_box()
        assert box["x"] + box["width"] <= 800 and box["height"] <= 400  # wrapped, and scrolls in its own box
