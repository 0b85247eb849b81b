"""Phase durations of a split that is not public are stored in whole seconds (red team round 12: with P and N, a
test phase timed to the millisecond tells a probing submission how far it got through the hidden tests)."""
from __future__ import annotations

import pytest

from catalog.models import Split
from core.engine.spec import TaskEvaluation
from evaluation.pipeline import result_store
from tests.factories import finished_submission

DURATIONS = {"install": 1.234, "start": 0.6, "probe": 0.1, "test": 12.49}


@pytest.mark.parametrize(("visibility", "stored"), [
    (Split.Visibility.PUBLIC, DURATIONS),
    (Split.Visibility.ENDPOINT_ONLY, {"install": 1, "start": 1, "probe": 0, "test": 12}),
    (Split.Visibility.HIDDEN, {"install": 1, "start": 1, "probe": 0, "test": 12}),
])
def test_durations_of_a_split_that_is_not_public_are_whole_seconds(demo_split, visibility, stored):
    submission = finished_submission(split=demo_split, system_name=f"timing-{visibility}", scores={})
    demo_split.visibility = visibility  # a hidden split takes no upload: hide it once the submission exists
    demo_split.save()
    result = submission.runs.get().results.select_related("task").first()

    assert result_store(result=result, evaluation=TaskEvaluation(
        task=result.task.name, outcome="tests_failed", dsr=1, tests_passed=1, tests_total=result.task.tests_total,
        durations=DURATIONS))

    result.refresh_from_db()
    assert result.durations == stored
