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


#: Per task link of /tasks/: its text and the places where a new line starts (index of the first character there).
LINE_STARTS = """() => Array.from(document.querySelectorAll('main table tbody td:first-child a')).map(a => {
  const chars = [];
  const walker = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode())
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange(); range.setStart(node, i); range.setEnd(node, i + 1);
      chars.push([node.data[i], Math.round(range.getBoundingClientRect().top)]);
    }
  const starts = [];
  for (let i = 1; i < chars.length; i++) if (chars[i][1] > chars[i - 1][1]) starts.push(i);
  return [chars.map(c => c[0]).join(""), starts];
})"""


def _natural(name: str, at: int) -> bool:
    """True when a line may start at `name[at]`: after a separator, or at a camelCase or letter-digit boundary."""
    before, after = name[at - 1], name[at]
    return (before in "_-./ " or (before.islower() or before.isdigit()) and after.isupper()
            or before.isalpha() and after.isdigit())


@pytest.mark.parametrize("width", [1280, 1024, 800])
def test_task_names_wrap_only_at_natural_boundaries(live_server, width):
    """On RepoGenesis Verified's 30 tasks (Data_Rank_Searcher, StructuredDataConvertor, spring-boot-course-scheduling,
    ...): /tasks/ at 1280 px cut "Data_Rank_Sear|cher" and "unchecke|d" before the fix."""
    from tests.factories import import_repogenesis_verified

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    import_repogenesis_verified()
    with chromium_page(width=width, height=900) as page:
        page.goto(f"{live_server.url}/tasks/?benchmark=repogenesis&split=verified")
        page.screenshot(path=str(_shots() / f"tasks-{width}.png"), full_page=True)
        names = page.evaluate(LINE_STARTS)
        assert len(names) == 30
        cut = {name: [name[:at] + "|" + name[at:] for at in starts if not _natural(name, at)]
               for name, starts in names}
        assert not {name: cuts for name, cuts in cut.items() if cuts}
        badges = page.evaluate("Array.from(document.querySelectorAll('main table .badge'))"
                               ".filter(b => b.getClientRects().length > 1 || b.offsetHeight > 30).length")
        assert badges == 0  # "unchecked" on one line
        assert _overflow(page) == 0


def test_a_100_character_system_name_keeps_every_page_within_the_viewport(live_server):
    """A 100-character unbreakable system name widened /compare/ to 2576 px and its submission page to 2721 px at a
    1280 px viewport, squeezed the matrix's heat map to a sliver (3 of 6 task labels shown) and pushed its table's
    task columns out of view, and ran the board's radar legend past its card."""
    from tests.conftest import import_demo
    from tests.factories import finished_submission

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    split = import_demo().splits.get(name="verified")
    long_name = "W" * 100
    scores = {"TodoList": (17, "passed", 1), "Notes": (10, "tests_failed", 1), "Bookstore": (9, "tests_failed", 1)}
    long = finished_submission(split=split, system_name=long_name, scores=scores)
    finished_submission(split=split, system_name="Short Agent", scores={"Notes": (3, "tests_failed", 1)})
    with chromium_page(width=1280, height=900) as page:
        for path, ready, shot in ((f"/compare/?a={long_name}&b=Short+Agent", "table", "compare-long-name"),
                                  (f"/submissions/{long.pk}/", "#outcomes .main-svg", "submission-long-name"),
                                  ("/matrix/", "#matrix-chart .main-svg", "matrix-long-name"),
                                  ("/?language=overall", "#radar-overall .main-svg", "board-long-name")):
            page.goto(live_server.url + path)
            page.wait_for_selector(ready)
            page.screenshot(path=str(_shots() / f"{shot}.png"), full_page=True)
            assert _overflow(page) == 0, (path, _overflow(page))
            if path == "/matrix/":
                assert page.locator("#matrix-chart .xtick").count() == 6  # every task labelled: the map keeps its width
                plot = page.locator("#matrix-chart .nsewdrag").first.bounding_box()
                assert plot["width"] > 300, plot
                table = page.locator(".matrix-table").bounding_box()
                last = page.locator("#matrix-table tbody tr").first.locator("td").last.bounding_box()
                assert last["x"] + last["width"] <= table["x"] + table["width"] + 1  # task columns in view
                assert page.locator("#matrix-table tbody th").first.get_attribute("title").endswith(long_name)
            if path.startswith("/?"):
                card = page.locator("#radar-overall").bounding_box()
                legend = page.locator("#radar-overall .legend").bounding_box()
                assert legend["x"] + legend["width"] <= card["x"] + card["width"] + 1, (legend, card)
