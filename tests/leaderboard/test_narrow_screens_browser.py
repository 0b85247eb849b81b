"""The site on a 390 px phone (Debian's Chromium, Playwright): no page is wider than the viewport, wide tables scroll in
their own box, numbers and normal words never break inside, and long tokens (a 100-character system name, a
250-character folder name quoted by an error) wrap. Screenshots go to $NARROW_SHOTS (default var/test/narrow-shots/).

Before the fix (fresh-user pass 13): the submission page was 463 px wide at 390 (its Scores table wrapped one letter
per line, "O v e r al l"), the board 769 px, the team page 963 px, /data/ 606 px, /systems/new/ 432 px, and an upload
error quoting a 250-character folder name made /submit/ 2558 px wide at 1366."""
from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache

from tests.browser_kit import chromium_page

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Agent" + "X" * 95  # 100 characters, no break opportunity
FOLDER = "A" * 250
PUBLISHED = ["DeepCode,Claude Sonnet 4.5,agent,1.95,36.00,50.00,0.00,25.00,100.00",
             "MetaGPT,Qwen3-Coder-30B,agent,0.28,65.00,50.00,0.00,0.00,0.00"]

#: Words of the matched elements (runs of characters between spaces, hyphens and slashes: "Qwen3-Coder-30B" may
#: break after a hyphen) that start on one line and end on another.
BROKEN_WORDS = """sel => { const broken = [];
  for (const el of document.querySelectorAll(sel)) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode())
      for (const m of node.data.matchAll(/[^\\s\\-\\/]+/g)) {
        const range = document.createRange(); range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
        const tops = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
  }
  return broken; }"""
#: Elements whose text runs over more than one line.
MULTILINE = """sel => Array.from(document.querySelectorAll(sel)).filter(el => {
  const range = document.createRange(); range.selectNodeContents(el);
  return new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top))).size > 1;
}).map(el => el.textContent.trim())"""


def _overflow(page) -> int:
    """How many pixels the page is wider than its viewport (0: nothing sticks out)."""
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def _right(page, selector: str) -> float:
    box = page.locator(selector).first.bounding_box()
    return box["x"] + box["width"]


def test_every_page_fits_a_390_px_phone_and_long_tokens_wrap(live_server, tmp_path):
    from django.contrib.auth.models import User
    from django.test import Client

    from catalog.models import System
    from catalog.services import team_for_user
    from submissions.models import Submission
    from tests.conftest import import_demo
    from tests.factories import finished_submission
    from tests.leaderboard.test_reported import import_reported, write_source

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs an event loop in this thread
    cache.clear()
    split = import_demo().splits.get(name="verified")
    user = User.objects.create_user("phone", password="pw-Phone-Secure-1")
    team = team_for_user(user=user)
    scores = {"TodoList": (17, "passed", 1), "Notes": (10, "tests_failed", 1), "Bookstore": (9, "tests_failed", 1)}
    long = finished_submission(split=split, system_name=LONG, team=team, scores=scores)
    System.objects.filter(name=LONG).update(base_model="model-" + "y" * 94, agent_framework="Z" * 100,
                                            description="d" * 300)
    finished_submission(split=split, system_name="Short Agent", scores={"Notes": (3, "tests_failed", 1)})
    Submission.objects.filter(pk=long.pk).update(error=f"Extraction failed: folder {FOLDER} is not a task")
    import_reported(write_source(tmp_path, PUBLISHED))
    system = System.objects.get(name=LONG)
    client = Client()
    client.force_login(user)
    shots = Path(os.environ.get("NARROW_SHOTS") or Path(settings.VAR_DIR) / "narrow-shots")
    shots.mkdir(parents=True, exist_ok=True)

    pages = {"/": "#radar-python .main-svg", "/?language=overall": "#radar-overall .main-svg", "/reported/": "table",
             "/tasks/": "table", "/matrix/": "#matrix-chart .main-svg", f"/compare/?a={LONG}&b=Short+Agent": "table",
             "/data/": "main", f"/submissions/{long.pk}/": "#outcomes .main-svg",
             f"/systems/{system.pk}/": "#breakdown .main-svg", "/systems/new/": "textarea", "/teams/": "table",
             f"/teams/{team.pk}/": "#team-systems", "/submit/": "main form", "/account/": "main"}
    with chromium_page(width=390, height=844) as page:
        page.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                                   "url": live_server.url}])
        wide = {}
        for path, ready in pages.items():
            page.goto(live_server.url + path)
            page.wait_for_selector(ready)
            name = path.split("?")[0].strip("/").replace("/", "-") or "home"
            page.screenshot(path=str(shots / f"{name}{'-q' if '?' in path else ''}.png"), full_page=True)
            if _overflow(page):
                wide[path] = _overflow(page)
        assert not wide, wide  # pixels each page stuck out past the 390 px viewport

        # The submission page: its Scores table keeps "Overall" and each interval on one line (it scrolls in its box
        # when the columns need more than the phone), and the 250-character token of its error wraps in the page.
        page.goto(f"{live_server.url}/submissions/{long.pk}/")
        assert page.evaluate(BROKEN_WORDS, ".card table td") == []
        assert page.evaluate(MULTILINE, ".card table .ci") == []
        assert _right(page, ".msg.error") <= 390
        assert page.locator(".msg.error").bounding_box()["height"] > 60  # wrapped over several lines
        # The board's published rows: "Claude Sonnet 4.5", "Agent" break between words only.
        page.goto(live_server.url + "/?language=python")
        page.locator("#panel-python details.reported summary").click()
        assert page.evaluate(BROKEN_WORDS, "#panel-python .reported-table td") == []
        assert page.evaluate(BROKEN_WORDS, "#panel-python td.num") == []
        assert page.evaluate(MULTILINE, "#panel-python .ci") == []  # "[0.0, 10.3]" on one line
        # The team page: the 100-character system name wraps inside the page.
        page.goto(f"{live_server.url}/teams/{team.pk}/")
        link = page.locator("#team-systems li a").first.bounding_box()
        assert link["x"] + link["width"] <= 390 and link["height"] > 40, link

    # On a desktop, an upload error quoting a 250-character folder name wraps instead of widening the page.
    archive = tmp_path / "long-folder.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr(f"{FOLDER}/start.sh", "echo hi\n")
    with chromium_page(width=1366, height=900) as page:
        page.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                                   "url": live_server.url}])
        page.goto(live_server.url + "/submit/")
        page.set_input_files("input[name=archive]", str(archive))
        page.check("input[name=allow_missing]")
        page.click("button.primary")
        page.wait_for_selector(".errorlist")
        page.screenshot(path=str(shots / "submit-long-folder-error.png"), full_page=True)
        assert FOLDER in page.locator(".errorlist").inner_text()
        assert _overflow(page) == 0, _overflow(page)
        assert _right(page, ".errorlist") <= 1366


REQUIRED_MARK = "el => getComputedStyle(el, '::after').content"
#: The "* required" legend a form with an enabled required field shows at its top.
LEGEND = "el => getComputedStyle(el, '::before').content"
FOCUSED_TOGGLE = "() => document.activeElement.classList.contains('menu-toggle')"


def test_the_menu_folds_on_a_phone_and_required_fields_are_marked(live_server):
    """A fresh-user pass on a phone scrolled past eleven lines of links before each page, and no form said which
    fields it needs: at 390 px the links fold behind "Menu" (opened and closed by it, closed by Escape, which gives
    the button the focus back, and by a tap outside it; a break-it pass found neither closed it); on a wide screen
    they show and the button does not; a required field's label ends with "*", an optional one's and a disabled
    one's (the Name of a ranked system) do not, and a form with a field marked says once "* required"."""
    from django.contrib.auth.models import User

    from catalog.services import system_create, team_for_user
    from tests.conftest import import_demo
    from tests.factories import finished_submission

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    split = import_demo().splits.get(name="verified")
    user = User.objects.create_user("menu-user", password="pw-Menu-Secure-1")
    team = team_for_user(user=user)
    system_create(team=team, name="Menu Agent")
    ranked = finished_submission(split=split, system_name="Ranked Agent", team=team,
                                 scores={"TodoList": (17, "passed", 1)}).system
    with chromium_page(width=390, height=844) as page:
        page.goto(live_server.url + "/signup/")
        nav, toggle = page.locator("#site-nav"), page.locator(".menu-toggle")
        assert toggle.is_visible() and not nav.is_visible()
        toggle.click()
        assert nav.locator("a", has_text="Docs").is_visible() and toggle.get_attribute("aria-expanded") == "true"
        toggle.click()
        assert not nav.is_visible() and toggle.get_attribute("aria-expanded") == "false"
        toggle.click()
        nav.locator("a", has_text="Docs").focus()  # a keyboard user inside the open menu
        page.keyboard.press("Escape")
        assert not nav.is_visible() and toggle.get_attribute("aria-expanded") == "false"
        assert page.evaluate(FOCUSED_TOGGLE)
        toggle.click()
        page.locator("main h1").click()  # a tap outside the menu
        assert not nav.is_visible() and toggle.get_attribute("aria-expanded") == "false"
        shots = Path(os.environ.get("NARROW_SHOTS") or Path(settings.VAR_DIR) / "narrow-shots")
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / "signup-required-legend.png"), full_page=True)
        assert page.locator("label[for=id_username]").evaluate(REQUIRED_MARK) == '" *"'
        assert page.locator("main form").evaluate(LEGEND) == '"* required"'
        page.goto(live_server.url + "/accounts/login/?next=/submit/")
        assert page.locator("label[for=id_password]").evaluate(REQUIRED_MARK) == '" *"'
        page.fill("#id_username", "menu-user")
        page.fill("#id_password", "pw-Menu-Secure-1")
        page.locator("main button").first.click()
        page.wait_for_url("**/submit/")
        assert page.locator("label[for=id_archive]").evaluate(REQUIRED_MARK) == '" *"'
        assert page.locator("label[for=id_note]").evaluate(REQUIRED_MARK) in ("none", "normal")  # optional
        assert page.locator("main form").evaluate(LEGEND) == '"* required"'
        assert page.locator("header form").evaluate(LEGEND) in ("none", "normal")  # sign out: nothing to fill in
        page.goto(f"{live_server.url}/systems/{ranked.pk}/edit/")
        assert page.locator("#id_name").is_disabled()
        assert page.locator("label[for=id_name]").evaluate(REQUIRED_MARK) in ("none", "normal")
        assert page.locator("main form").evaluate(LEGEND) in ("none", "normal")  # no field it must fill in
        menu_agent = ranked.team.systems.get(name="Menu Agent")
        page.goto(f"{live_server.url}/systems/{menu_agent.pk}/edit/")
        assert page.locator("label[for=id_name]").evaluate(REQUIRED_MARK) == '" *"'
        assert page.locator("main form").evaluate(LEGEND) == '"* required"'
    with chromium_page(width=1280, height=800) as page:
        page.goto(live_server.url + "/")
        assert page.locator("#site-nav a", has_text="Docs").is_visible()
        assert not page.locator(".menu-toggle").is_visible()
