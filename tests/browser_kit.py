"""Headless Chromium for the browser tests (Debian's chromium driven by Playwright's sync API)."""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--no-first-run", "--disable-sync"]


@contextmanager
def chromium_page(*, width: int = 1280, height: int = 1000):
    """A fresh page of a fresh Chromium, `width` x `height` pixels; fails the test (never skips) when Debian's
    chromium is missing."""
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is not installed: run `WITH_BROWSER=1 scripts/bootstrap.sh`")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield browser.new_page(viewport={"width": width, "height": height})
        finally:
            browser.close()
