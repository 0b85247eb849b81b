"""The research pages in Debian's Chromium (Playwright), on RepoGenesis Verified with seeded systems: the compare
view, the matrix heat map (a click opens the task's result), task difficulty, a filtered board, the data page and
the export files opened. Screenshots go to $RESEARCH_SHOTS (default var/test/research-shots/)."""
from __future__ import annotations

import csv
import html
import io
import os
import random
from pathlib import Path

import pytest

from tests.browser_kit import chromium_page
from django.conf import settings
from django.core.management import call_command

from catalog.models import Benchmark, System, Team
from tests.factories import finished_submission

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]
RELEASE = ROOT.parent / "shared" / "data" / "repogenesis" / "verified"
MANIFEST = ROOT / "benchmarks" / "repogenesis" / "benchmark.json"
SEEDED = [("OpenHands + GPT-5", "agent", "OpenHands", "gpt-5", 0.55), ("Cursor + Claude", "ide", "Cursor",
          "claude-sonnet-4.5", 0.5), ("MetaGPT + GPT-5 mini", "agent", "MetaGPT", "gpt-5-mini", 0.3),
          ("Aider + Qwen", "other", "Aider", "qwen3-coder", 0.2)]


@pytest.fixture
def page():
    with chromium_page(height=1000) as page:
        yield page


def _seed():
    call_command("import_benchmark", str(RELEASE), "--manifest", str(MANIFEST), "--skip-reference-check",
                 stdout=open("/dev/null", "w"))
    split = Benchmark.objects.get(name="repogenesis", is_current=True).splits.get(name="verified")
    rng = random.Random(12)
    team = Team.objects.create(name="research")
    for name, kind, framework, model, skill in SEEDED:
        System.objects.create(team=team, name=name, type=kind, agent_framework=framework, base_model=model)
        scores = {}
        for task in split.tasks.all():
            if rng.random() > skill + 0.3:
                scores[task.name] = (0, "start_crashed", 0)
                continue
            passed = min(task.tests_total, round(task.tests_total * min(1.0, rng.random() + skill - 0.2)))
            passed = max(passed, 0)
            outcome = "passed" if task.tests_total and passed == task.tests_total else "tests_failed"
            scores[task.name] = (passed, outcome, 1)
        finished_submission(split=split, system_name=name, scores=scores, team=team)
    return split


def _csv_as_html(text: str, title: str) -> str:
    rows = list(csv.reader(io.StringIO(text)))
    head = "".join(f"<th>{html.escape(c)}</th>" for c in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows[1:40])
    return (f"<html><body style='font:11px monospace'><h3>{html.escape(title)}</h3><table border=1 "
            f"style='border-collapse:collapse'><tr>{head}</tr>{body}</table></body></html>")


def test_research_pages_render_and_link(live_server, page):
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    if not RELEASE.is_dir():
        pytest.fail(f"the shared copy of RepoGenesis Verified is missing at {RELEASE}")
    _seed()
    shots = Path(os.environ.get("RESEARCH_SHOTS") or Path(settings.VAR_DIR) / "research-shots")
    shots.mkdir(parents=True, exist_ok=True)
    base = live_server.url
    q = "benchmark=repogenesis&split=verified"

    page.goto(f"{base}/?{q}&language=overall&type=agent&sort=dsr")
    page.wait_for_selector("#radar-overall .main-svg")
    assert page.locator("#panel-overall table.board").first.locator("tbody tr").count() == 2
    assert page.locator("#board-filters[open]").count() == 1
    page.screenshot(path=str(shots / "board-filtered.png"), full_page=True)
    page.goto(f"{base}/?{q}&language=overall")
    page.wait_for_selector("#radar-overall .main-svg")
    page.locator("#panel-overall a.cmp").first.click()
    page.wait_for_selector("#verdict")
    assert "95% paired interval" in page.locator("#verdict").inner_text()
    assert page.locator("#per-task tbody tr").count() == 30
    page.screenshot(path=str(shots / "compare.png"), full_page=True)

    page.goto(f"{base}/matrix/?{q}&language=overall")
    page.wait_for_selector("#matrix-chart .main-svg")
    assert page.locator("#matrix-table tbody tr").count() == len(SEEDED)
    page.screenshot(path=str(shots / "matrix.png"), full_page=True)
    page.locator("#matrix-chart .nsewdrag").first.click(position={"x": 20, "y": 15})
    page.wait_for_url("**/submissions/*/#task-*")
    assert "#task-" in page.url
    page.screenshot(path=str(shots / "matrix-click-result.png"))
    page.goto(page.url.split("#")[0])
    assert "manage.py evaluate" in page.locator("#reproduce").inner_text()
    page.locator("#reproduce").scroll_into_view_if_needed()
    page.locator("#reproduce").screenshot(path=str(shots / "report-reproduce.png"))

    page.goto(f"{base}/tasks/?{q}")
    assert page.locator("text=discriminating").count() > 0
    page.screenshot(path=str(shots / "tasks-difficulty.png"), full_page=True)
    page.goto(f"{base}/tasks/Chatroom/?{q}")
    page.locator("#difficulty").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "task-difficulty.png"))

    page.goto(f"{base}/data/?{q}")
    assert "@inproceedings{peng2026repogenesis" in page.locator("#bibtex-paper").inner_text()
    page.screenshot(path=str(shots / "data-cite.png"), full_page=True)
    for name in ("board.csv", "results.csv", "board.json"):
        response = page.request.get(f"{base}/api/v1/export/{name}?{q}")
        assert response.ok
        (shots / f"export-{name}").write_bytes(response.body())
        if name.endswith(".csv"):
            page.set_content(_csv_as_html(response.text(), name))
            page.screenshot(path=str(shots / f"export-{name}.png"), full_page=True)
    assert page.evaluate("() => document.scrollingElement.scrollWidth") >= 1
