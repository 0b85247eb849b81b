"""RepoGenesis Verified's research pages at 1280 px in Debian's Chromium (Playwright), as the issue 12 screenshots
showed them: the matrix's task headers show every task name whole, and /tasks/ shows its Difficulty column without
scrolling. Screenshots: $TEXT_SHOTS (default var/test/text-shots/)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings

from tests.browser_kit import chromium_page

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Per task header of the matrix's table: the name, and how many pixels its link sticks out of the header's box.
CLIPPED = """() => Array.from(document.querySelectorAll('#matrix-table th.task')).map(th => {
  const box = th.getBoundingClientRect(), name = th.querySelector('a').getBoundingClientRect();
  return [th.textContent.trim(), Math.round(Math.max(box.top - name.top, name.bottom - box.bottom, 0)),
          th.getAttribute('title') || ''];
})"""


def _repogenesis_with_systems(scores: dict[str, dict[str, tuple[int, str, int]]]):
    """Import RepoGenesis Verified from the shared copy and give each system of `scores` a finished submission;
    returns the screenshots folder."""
    from tests.factories import finished_submission, import_repogenesis_verified

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    split = import_repogenesis_verified()
    for system, tasks in scores.items():
        finished_submission(split=split, system_name=system, scores=tasks)
    shots = Path(os.environ.get("TEXT_SHOTS") or Path(settings.VAR_DIR) / "text-shots")
    shots.mkdir(parents=True, exist_ok=True)
    return shots


def test_every_task_name_of_the_matrix_table_is_shown_whole(live_server):
    """The vertical headers were capped at 11rem and cut the longer RepoGenesis names at the table's top edge
    ("javalin-user-auth-platfo", "spring-boot-course-sch", "rock-paper-scissors-flas": issue 12 screenshots)."""
    shots = _repogenesis_with_systems({"Matrix Agent": {"flask": (7, "passed", 1)}})

    with chromium_page(width=1280, height=1000) as page:
        page.goto(f"{live_server.url}/matrix/?benchmark=repogenesis&split=verified&language=overall")
        page.wait_for_selector("#matrix-table")
        page.screenshot(path=str(shots / "matrix-task-headers.png"), full_page=True)
        headers = page.evaluate(CLIPPED)

    assert len(headers) == 29  # 30 tasks, one left out (N = 0)
    assert {name: px for name, px, _ in headers if px > 1} == {}
    assert all(title.startswith(name) for name, _, title in headers)  # the whole name on hover, whatever its length


def test_the_task_catalog_shows_its_difficulty_column_without_scrolling_at_1280_px(live_server):
    """With ranked systems the Difficulty column holds "never solved" / "discriminating" badges (never wrapped) and the
    mean and spread: the table was 40 px wider than its box at 1280 px and the column was cut, behind a scroll bar."""
    shots = _repogenesis_with_systems({"Solver": {"flask": (7, "passed", 1), "synapse": (5, "passed", 1)},
                                       "Trier": {"flask": (3, "tests_failed", 1), "synapse": (5, "passed", 1)},
                                       "Third": {"synapse": (5, "passed", 1)}})  # labels need 3 ranked systems

    with chromium_page(width=1280, height=1000) as page:
        page.goto(f"{live_server.url}/tasks/?benchmark=repogenesis&split=verified")
        page.wait_for_selector("table.tasks")
        page.screenshot(path=str(shots / "tasks-difficulty-1280.png"), full_page=True)
        labels = page.locator("table.tasks td.difficulty .badge").all_inner_texts()
        wrap = page.evaluate("(() => { const w = document.querySelector('table.tasks').parentElement;"
                             " return [w.scrollWidth, w.clientWidth]; })()")

    assert {"never solved", "discriminating", "saturated"} <= set(labels)
    assert wrap[0] <= wrap[1], f"the table is {wrap[0] - wrap[1]} px wider than its box"
