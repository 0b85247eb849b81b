"""A running submission's status page in Debian's Chromium: a task's row follows the run without a reload (issue 12,
"Defects": the header counted tasks done while every row still read "pending")."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from core.engine.spec import TaskEvaluation
from evaluation.models import TaskResult
from evaluation.pipeline import result_store
from tests.browser_kit import chromium_page
from tests.conftest import import_demo
from tests.leaderboard.test_status_rows import running_submission

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_task_row_changes_without_a_reload(live_server):
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs an event loop in this thread
    split = import_demo().splits.get(name="verified")
    submission, run = running_submission(split)
    with chromium_page(width=1280, height=900) as page:
        page.goto(f"{live_server.url}/submissions/{submission.pk}/")
        page.evaluate("window.__sameDocument = true")
        notes, todo = 'tr[data-task="Notes"]', 'tr[data-task="TodoList"]'
        assert page.locator(f"{notes} td.t-outcome").inner_text() == "pending"

        run.results.filter(task__name="Notes").update(status=TaskResult.Status.RUNNING, phase="test")
        expect(page.locator(f"{notes} td.t-outcome")).to_have_text("running: test", timeout=10_000)
        result = run.results.select_related("task").get(task__name="TodoList")
        result_store(result=result, evaluation=TaskEvaluation(task="TodoList", outcome="tests_failed", dsr=1,
                                                              tests_passed=5, tests_total=result.task.tests_total))
        expect(page.locator(f"{todo} td.t-outcome")).to_have_text("tests_failed", timeout=10_000)
        assert page.locator(f"{todo} td.t-tests").inner_text() == f"5/{result.task.tests_total}"
        assert page.locator(f"{todo} td.t-pass").inner_text() == f"{500 / result.task.tests_total:.1f}%"
        assert page.locator(f"{todo} td.t-dsr").inner_text() == "1"
        assert "1 of 6 tasks done · Notes (test)" in page.locator("#progress-text").inner_text()
        assert page.evaluate("window.__sameDocument") is True  # no reload: the rows were redrawn in place
        shots = Path(settings.VAR_DIR) / "screenshots"
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / "submission-running.png"), full_page=True)
