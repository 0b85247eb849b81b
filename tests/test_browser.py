"""The leaderboard in Debian's Chromium driven by Playwright: tabs switch and radar charts render.

Screenshots are saved under var/test/screenshots/ for a human to look at.
"""
import shutil
from pathlib import Path

import pytest

from tests.browser_kit import chromium_page
from django.conf import settings

from tests.conftest import import_demo
from tests.factories import finished_submission

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page():
    with chromium_page(height=1100) as page:
        yield page


def test_tabs_switch_and_radar_charts_render(live_server, page):
    import os

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs an event loop in this thread
    split = import_demo().splits.get(name="verified")
    finished_submission(split=split, system_name="Chart A", scores={"TodoList": (17, "passed", 1),
                                                                    "InventoryService": (15, "passed", 1)})
    finished_submission(split=split, system_name="Chart B", scores={"Notes": (10, "tests_failed", 1),
                                                                    "InventoryService": (3, "tests_failed", 1)})
    shots = Path(settings.VAR_DIR) / "screenshots"
    shutil.rmtree(shots, ignore_errors=True)
    shots.mkdir(parents=True)

    page.goto(live_server.url + "/")
    page.wait_for_selector("#radar-python .main-svg")
    assert page.locator("#panel-python").is_visible()
    assert page.locator("#panel-python tbody tr").count() == 2
    assert page.locator("#radar-python .scatterlayer .trace").count() == 2
    page.screenshot(path=str(shots / "leaderboard-python.png"), full_page=True)

    page.click("button[data-tab=java]")
    page.wait_for_selector("#radar-java .main-svg")
    assert page.locator("#panel-java").is_visible() and not page.locator("#panel-python").is_visible()
    assert page.locator("#panel-java tbody tr").first.locator("td").nth(1).locator("a").first.inner_text() == "Chart A"
    assert "language=java" in page.url
    page.screenshot(path=str(shots / "leaderboard-java.png"), full_page=True)

    page.click("button[data-tab=overall]")
    page.wait_for_selector("#radar-overall .main-svg")
    page.screenshot(path=str(shots / "leaderboard-overall.png"), full_page=True)
    assert page.locator("#radar-overall .legend .traces").count() == 2


def test_published_results_stay_folded_apart_until_opened(live_server, page, tmp_path):
    import os

    from django.contrib.auth.models import User

    from catalog.models import ReportedResult
    from catalog.services import reported_result_verify
    from tests.leaderboard.test_reported import TWO_ROWS, import_reported, write_source

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    split = import_demo().splits.get(name="verified")
    finished_submission(split=split, system_name="Ours", scores={"TodoList": (17, "passed", 1)})
    import_reported(write_source(tmp_path, TWO_ROWS))
    admin = User.objects.create_superuser("root", password="pw-Root-Secure-123")
    reported_result_verify(result=ReportedResult.objects.get(system="Paper Bot"), user=admin)

    page.goto(live_server.url + "/")
    page.wait_for_selector("#radar-python .main-svg")
    ranked = page.locator("#panel-python table.board").first.locator("tbody tr")
    assert [ranked.nth(i).locator("td").nth(1).inner_text() for i in range(ranked.count())] == [
        "Paper Bot reported by the authors", "Ours verified partial"]  # each row's badge says where its numbers come from
    assert page.locator("#radar-python .legend .traces").count() == 2
    folded = page.locator("#panel-python details.reported")
    assert not folded.locator("table").is_visible()
    folded.locator("summary").click()
    assert folded.locator("table").is_visible() and "Odd Bot" in folded.inner_text()
    shots = Path(settings.VAR_DIR) / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / "leaderboard-reported.png"), full_page=True)

    page.goto(live_server.url + "/reported/")
    assert page.locator("#reported-{} .inconsistent".format(ReportedResult.objects.get(system="Odd Bot").pk)).count() == 3
    assert "verified by an admin" in page.locator(f"#reported-{ReportedResult.objects.get(system='Paper Bot').pk}").inner_text()
