"""The board's significance bands and badges, a long unbreakable name, a system's history chart and a README list,
in Debian's Chromium at 1280 px (Playwright). Screenshots go to $BOARD_SHOTS (default var/test/board-shots/)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser_kit import chromium_page
from django.conf import settings
from django.core.cache import cache

from catalog.models import System
from tests.conftest import import_demo
from tests.factories import finished_submission

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LONG = "Agent" + "X" * 95  # 100 characters, no break opportunity
ALL = {"TodoList": (17, "passed", 1), "Notes": (15, "passed", 1), "Bookstore": (18, "passed", 1),
       "Tic-Tac-Toe": (12, "passed", 1), "UserManagement_2": (14, "passed", 1), "InventoryService": (15, "passed", 1)}


@pytest.fixture
def page():
    with chromium_page(height=1000) as page:
        yield page


def test_bands_badges_long_names_history_and_readme_lists_in_chromium(live_server, page):
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs an event loop in this thread
    cache.clear()
    split = import_demo().splits.get(name="verified")
    finished_submission(split=split, system_name="Strong", scores=ALL)
    finished_submission(split=split, system_name="Close", scores={**ALL, "Notes": (14, "tests_failed", 1)})
    finished_submission(split=split, system_name=LONG, scores={"TodoList": (17, "passed", 1),
                                                               "Notes": (7, "tests_failed", 1)})
    System.objects.filter(name=LONG).update(base_model="model-" + "y" * 94, agent_framework="Z" * 100)
    System.objects.filter(name="Strong").update(source_url="https://github.com/example/strong")
    finished_submission(split=split, system_name="Strong", scores={**ALL, "Bookstore": (9, "tests_failed", 1)})
    finished_submission(split=split, system_name="Strong", scores=ALL)
    shots = Path(os.environ.get("BOARD_SHOTS", Path(settings.VAR_DIR) / "board-shots"))
    shots.mkdir(parents=True, exist_ok=True)

    page.goto(live_server.url + "/?language=overall")
    page.wait_for_selector("#radar-overall .main-svg")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280  # the long name wraps inside its cell
    rows = page.locator("#panel-overall table.board tbody tr")
    assert rows.count() == 3
    assert rows.nth(0).locator(".band i.self").count() == 1 and rows.nth(0).locator(".band i.in").count() == 1
    assert rows.nth(0).locator(".rowbadge-open-source").get_attribute("href") == "https://github.com/example/strong"
    assert rows.nth(0).locator(".rowbadge-verified").is_visible()
    page.screenshot(path=str(shots / "board-bands-badges.png"), full_page=True)

    strong = System.objects.get(name="Strong")
    page.goto(f"{live_server.url}/systems/{strong.pk}/")
    page.wait_for_selector("#history-1 .main-svg")
    assert page.locator("#history-1 .scatterlayer .trace").count() == 2  # the line and the ranked star
    assert page.locator("#history table tbody tr").count() == 3
    assert "ranked #1 in Overall" in page.locator("#history tr.ranked").inner_text()
    page.screenshot(path=str(shots / "system-history.png"), full_page=True)

    page.goto(f"{live_server.url}/tasks/Bookstore/")
    assert page.locator(".readme ul li").count() > 5
    page.screenshot(path=str(shots / "readme-lists.png"), full_page=True)


def test_the_upload_form_names_missing_tasks_before_queueing_and_the_report_shows_the_note(live_server, page,
                                                                                            tmp_path):
    import io
    import zipfile

    from django.contrib.auth.models import User
    from django.test import Client

    from catalog.services import team_for_user
    from submissions.models import Submission

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    import_demo()
    user = User.objects.create_user("uploader", password="pw-uploader-Secure-1")
    System.objects.create(team=team_for_user(user=user), name="Uploader Bot")
    browser_client = Client()
    browser_client.force_login(user)
    page.context.add_cookies([{"name": "sessionid", "value": browser_client.cookies["sessionid"].value,
                               "url": live_server.url}])
    archive = tmp_path / "one-task.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("TodoList/start.sh", "echo hi\n")
    shots = Path(os.environ.get("BOARD_SHOTS", Path(settings.VAR_DIR) / "board-shots"))
    shots.mkdir(parents=True, exist_ok=True)

    page.goto(live_server.url + "/submit/")
    page.set_input_files("input[name=archive]", str(archive))
    page.fill("input[name=note]", "first try, temperature 0")
    page.click("button.primary")
    assert "5 tasks missing (each scores 0): Bookstore" in page.content()
    assert Submission.objects.count() == 0
    page.screenshot(path=str(shots / "upload-missing-tasks.png"), full_page=True)

    page.set_input_files("input[name=archive]", str(archive))
    page.check("input[name=allow_missing]")
    page.click("button.primary")
    page.wait_for_url("**/submissions/*/")
    assert page.locator("#note").inner_text() == "Note: first try, temperature 0"
    assert page.locator("h1 a").inner_text() == "Uploader Bot"
    page.screenshot(path=str(shots / "submission-note.png"), full_page=True)
