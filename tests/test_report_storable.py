"""Every string of a stored evaluation is storable in PostgreSQL's text and jsonb (red team round 9: one NUL byte a
submission printed in its start log made its task unstorable there, so `harness_error` and an unscored, uncharged
run)."""
from core.engine.spec import TaskEvaluation
from core.report import evaluation_fields, storable


def test_nul_and_lone_surrogates_become_the_replacement_character():
    assert storable({"start": "starting\x00 ok", "name\udcff": ["a\ud800b", ("x", 1, None)]}) == {
        "start": "starting\ufffd ok", "name\ufffd": ["a\ufffdb", ["x", 1, None]]}
    assert storable("plain text, é, 漢字") == "plain text, é, 漢字"


def test_the_stored_fields_of_an_evaluation_carry_no_nul():
    evaluation = TaskEvaluation(task="TodoList", outcome="tests_failed", dsr=1, tests_passed=14, tests_total=17,
                                logs={"start": "starting\x00"}, detail="bad\x00 detail")

    fields = evaluation_fields(evaluation)

    assert fields["logs"] == {"start": "starting\ufffd"} and fields["detail"] == "bad\ufffd detail"
    assert (fields["tests_passed"], fields["tests_total"]) == (14, 17)
