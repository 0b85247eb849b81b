"""`manage.py rescore`: after an evaluator upgrade, what was scored by the older evaluator is queued again on the
current benchmark version, once; the rest is left alone (docs/deploy.md "Upgrading the evaluator and re-scoring")."""
import io

import pytest
from django.core.management import CommandError, call_command

from evaluation.models import EvaluationRun, RunStatus
from tests.factories import finished_submission

SCORES = {"TodoList": (17, "passed", 1)}


def _rescore(*args: str) -> str:
    out = io.StringIO()
    call_command("rescore", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_outdated_submissions_are_queued_again_once_and_current_ones_are_left(demo_split):
    old = finished_submission(split=demo_split, system_name="Old Evaluator Bot", scores=SCORES)
    current = finished_submission(split=demo_split, system_name="Current Bot", scores=SCORES)
    EvaluationRun.objects.filter(submission=old).update(evaluator_version="0.0.1")  # scored before the upgrade

    assert "would re-score 1 submission(s)" in _rescore("--outdated", "--dry-run")
    assert old.runs.count() == 1  # a dry run changes nothing

    assert "queued 1 submission(s)" in _rescore("--outdated")
    latest = old.runs.order_by("-pk").first()
    assert old.runs.count() == 2 and latest.status == RunStatus.QUEUED and latest.split == demo_split
    assert current.runs.count() == 1
    assert "queued 0 submission(s)" in _rescore("--outdated")  # already re-queued: not twice


def test_named_submissions_are_rescored_and_an_unknown_id_stores_nothing(demo_split):
    sub = finished_submission(split=demo_split, system_name="Named Bot", scores=SCORES)
    with pytest.raises(CommandError, match="no submission with id 999999"):
        _rescore("--submission", str(sub.pk), "999999")
    assert sub.runs.count() == 1
    assert "queued 1 submission(s)" in _rescore("--submission", str(sub.pk))
    assert sub.runs.count() == 2
