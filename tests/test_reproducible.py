"""Reproducibility: evaluating the same demo submission twice gives identical per-task results."""
import pytest

from evaluation.pipeline import folder_evaluate
from catalog.models import Split
from tests.conftest import DEMO_SUBMISSIONS, import_demo

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _fingerprint(pairs) -> dict:
    return {t.name: (e.outcome, e.tests_passed, e.tests_total, e.dsr,
                     tuple((x.method, x.path, x.implemented, x.evidence) for x in e.endpoints)) for t, e in pairs}


@pytest.mark.parametrize("submission", ["agent-alpha", "agent-beta"])
def test_same_submission_twice_gives_identical_results(submission):
    import_demo()
    split = Split.objects.get(benchmark__name="demo", benchmark__is_current=True, name="verified")
    tasks = list(split.tasks.select_related("benchmark").order_by("name"))
    first = _fingerprint(folder_evaluate(tasks=tasks, root=DEMO_SUBMISSIONS / submission))
    second = _fingerprint(folder_evaluate(tasks=tasks, root=DEMO_SUBMISSIONS / submission))
    assert first == second
    assert len(first) == 6
