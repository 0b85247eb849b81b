"""What a submitter may see (docs/scoring.md "What a submitter may see"), for a finished submission on a public and on
a hidden split, as its owner, as a signed-in user of another team and anonymously, on every surface that shows it:
the submission page, its status JSON and report downloads, and the API (leaderboard/api/submissions.py).

- Everyone who may see the submission: per task the outcome, its detail, DSR, AC with each endpoint's evidence,
  P and N, Pass@1 and phase durations.
- The install, build and start logs: the submission's team only (they are its service's output).
- Per-test outcomes (test names): public splits only; never on a hidden split, whoever asks. No surface carries
  assertion messages or what the service printed while the tests ran (the engine keeps neither).
- A private submission of another team answers 404 everywhere (not 403): its existence does not leak.

The stored results are the engine's TaskEvaluation shape (core.report.evaluation_fields), written through the
pipeline by tests.factories.finished_submission; the slow tests/test_hidden_canary.py checks the same rules on a
real run.
"""
from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.test import Client

from catalog.models import Split
from catalog.services import system_create, team_for_user
from core.engine.spec import EndpointEvidence, TaskEvaluation, TestCaseResult
from tests.factories import finished_submission

INSTALL_LINE = "Installed 3 packages: flask==3.1.1 (install-log-marker)"
START_LINE = "service listening on 8080 (start-log-marker)"
CASE_NAMES = ("tests.test_todos::test_visible_case_marker_create", "tests.test_todos::test_visible_case_marker_list")
DETAIL = "1 of 2 hidden tests passed"

#: The fields of GET /api/v1/submissions/<id>/ (SubmissionOutputSerializer) of a finished upload, for anyone who
#: may see it; `withdrawn_reason` is added for its team once withdrawn.
API_FIELDS = {"id", "system", "team", "benchmark", "split", "status", "error", "warnings", "archive_name",
              "archive_bytes", "archive_sha256", "note", "is_public", "created_at", "finished_at", "source",
              "withdrawn_at", "run", "queue"}
#: The fields of one task of report.json (core.report.task_entry): no logs, no cases.
REPORT_TASK_FIELDS = {"task", "language", "framework", "domain", "outcome", "dsr", "ac", "ac_declared",
                      "ac_implemented", "endpoints", "tests_passed", "tests_total", "pass_at_1", "solved",
                      "durations", "detail", "reference_status", "excluded", "defects"}


@pytest.fixture
def people(make_user):
    """{"owner": user, "other": user of another team} and the owner's system."""
    owner, _ = make_user("vis-owner")
    other, _ = make_user("vis-other")
    system = system_create(team=team_for_user(user=owner), name="Visibility Bot")
    return {"owner": owner, "other": other}, system


def _evaluation(task) -> TaskEvaluation:
    return TaskEvaluation(
        task=task.name, outcome="tests_failed", dsr=1, tests_passed=1, tests_total=2,
        endpoints=(EndpointEvidence("GET", "/health", True, "probe"),),
        durations={"install": 1.5, "start": 0.25, "probe": 0.1, "test": 2.0},
        logs={"install": INSTALL_LINE + "\n", "start": START_LINE + "\n"},
        cases=(TestCaseResult(CASE_NAMES[0], "passed"), TestCaseResult(CASE_NAMES[1], "failed")), detail=DETAIL)


def _submission(demo_split, system, *, is_public: bool = True, visibility: str = Split.Visibility.PUBLIC):
    task = demo_split.tasks.get(name="TodoList")
    submission = finished_submission(split=demo_split, system_name=system.name, scores={}, team=system.team,
                                     is_public=is_public, evaluations={task.name: _evaluation(task)})
    assert submission.status == "finished"
    demo_split.visibility = visibility  # a hidden split takes no upload: hide it once the submission exists
    demo_split.save()
    return submission


def _client(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _body(response) -> str:
    return (b"".join(response.streaming_content) if response.streaming else response.content).decode()


def _surfaces(pk: int) -> list[str]:
    return [f"/submissions/{pk}/", f"/submissions/{pk}/status.json", f"/submissions/{pk}/report.json",
            f"/submissions/{pk}/report.csv", f"/api/v1/submissions/{pk}/", f"/api/v1/submissions/{pk}/report.json",
            f"/api/v1/submissions/{pk}/report.csv"]


def _keys(value) -> set[str]:
    """Every key of every mapping inside a JSON value."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


VIEWERS = ["owner", "other", "anonymous"]


def _main(response) -> str:
    """The page's <main> (the header holds a per-request CSRF token), or the whole JSON body."""
    body = _body(response)
    return body[body.find("<main>"):body.find("</main>")] if "<main>" in body else body


def _without_numbers(text: str) -> str:
    return re.sub(r"\d+", "N", text)


@pytest.mark.parametrize("visibility", [Split.Visibility.PUBLIC, Split.Visibility.HIDDEN])
@pytest.mark.parametrize("viewer", VIEWERS)
def test_the_submission_page_shows_the_scores_to_all_logs_to_the_team_and_test_names_on_public_splits(
        demo_split, people, viewer, visibility):
    users, system = people
    submission = _submission(demo_split, system, visibility=visibility)
    member, public_split = viewer == "owner", visibility == Split.Visibility.PUBLIC

    page = _client(users.get(viewer)).get(f"/submissions/{submission.pk}/").content.decode()

    card = page[page.index('<div class="card" id="task-TodoList">'):]
    card = card[:card.index("</div>", card.index("</table></div>") + len("</table></div>"))]  # its table is wrapped
    assert '<span class="badge tests_failed">tests_failed</span>' in card and f"<p>{DETAIL}</p>" in card
    assert "<td><code>GET /health</code></td><td>yes</td><td>probe</td>" in card  # AC with its evidence
    assert ('<td class="t-tests">1/2</td><td class="t-pass">50.0%</td>\n<td class="t-durations">1.5 / 0.25 / 2.0'
            '</td>') in page  # P/N, Pass@1, phase durations
    assert ("<summary>install log</summary>" in card, INSTALL_LINE in page) == (member, member)
    assert ("<summary>start log</summary>" in card, START_LINE in page) == (member, member)
    assert [name in page for name in CASE_NAMES] == [public_split] * 2
    assert ("Per-test outcomes (2)" in card) is public_split


@pytest.mark.parametrize("visibility", [Split.Visibility.PUBLIC, Split.Visibility.HIDDEN])
@pytest.mark.parametrize("viewer", VIEWERS)
def test_the_api_and_reports_carry_the_scores_and_never_logs_or_test_names(demo_split, people, viewer, visibility):
    users, system = people
    submission = _submission(demo_split, system, visibility=visibility)
    client = _client(users.get(viewer))

    for url in _surfaces(submission.pk)[1:]:  # everything but the page (above)
        response = client.get(url)
        assert response.status_code == 200, url
        body = _body(response)
        for hidden in (INSTALL_LINE, START_LINE, *CASE_NAMES):
            assert hidden not in body, (url, hidden)
        if url.endswith(".json"):
            assert not {"logs", "cases"} & _keys(json.loads(body)), url
    data = client.get(f"/api/v1/submissions/{submission.pk}/").json()
    assert set(data) == API_FIELDS
    assert data["run"]["summary"]["overall"]["tasks"] == 6
    report = client.get(f"/api/v1/submissions/{submission.pk}/report.json").json()
    todo = next(t for t in report["tasks"] if t["task"] == "TodoList")
    assert set(todo) == REPORT_TASK_FIELDS
    assert (todo["outcome"], todo["detail"], todo["tests_passed"], todo["tests_total"], todo["dsr"]) == (
        "tests_failed", DETAIL, 1, 2, 1)
    assert todo["endpoints"] == [{"method": "GET", "path": "/health", "evidence": "probe"}]
    assert todo["durations"] == {"install": 1.5, "start": 0.25, "test": 2.0}
    rows = list(csv.DictReader(io.StringIO(_body(client.get(f"/submissions/{submission.pk}/report.csv")))))
    assert next(r for r in rows if r["task"] == "TodoList")["detail"] == DETAIL


@pytest.mark.parametrize("viewer", ["other", "anonymous"])
def test_another_teams_private_submission_is_404_everywhere_not_403(demo_split, people, viewer):
    users, system = people
    submission = _submission(demo_split, system, is_public=False)
    client = _client(users.get(viewer))

    for url in [*_surfaces(submission.pk), f"/submissions/{submission.pk}/archive",
                f"/api/v1/submissions/{submission.pk}/archive"]:
        response = client.get(url)
        # The API's archive asks for a signed-in caller first (401), whether the submission exists or not.
        expected = 401 if viewer == "anonymous" and url.startswith("/api/") and url.endswith("/archive") else 404
        assert response.status_code == expected, (url, response.status_code)
    # Listed nowhere either, so neither its id nor its system name leaks.
    listed = client.get("/api/v1/submissions/?page_size=200").json()["results"]
    assert submission.pk not in [s["id"] for s in listed]
    # A submission id that never existed answers the same as the private one (numbers aside).
    for url in ("/submissions/{}/", "/api/v1/submissions/{}/"):
        private, unknown = client.get(url.format(submission.pk)), client.get(url.format(999999))
        assert unknown.status_code == 404
        assert _without_numbers(_main(private)) == _without_numbers(_main(unknown))


def test_the_owner_sees_its_private_submission_with_its_logs(demo_split, people):
    users, system = people
    submission = _submission(demo_split, system, is_public=False)
    client = _client(users["owner"])

    for url in [*_surfaces(submission.pk), f"/submissions/{submission.pk}/archive"]:
        assert client.get(url).status_code == 200, url
    assert INSTALL_LINE in client.get(f"/submissions/{submission.pk}/").content.decode()
    assert submission.pk in [s["id"] for s in client.get("/api/v1/submissions/?page_size=200").json()["results"]]


def test_the_archive_of_a_public_submission_is_its_teams_alone(demo_split, people):
    """A public submission's existence is public: another team gets 403 for its archive (the code it uploaded)."""
    users, system = people
    submission = _submission(demo_split, system)

    assert _client(users["owner"]).get(f"/submissions/{submission.pk}/archive").status_code == 200
    assert _client(users["other"]).get(f"/submissions/{submission.pk}/archive").status_code == 403
    assert _client(users["other"]).get(f"/api/v1/submissions/{submission.pk}/archive").status_code == 403
    assert _client(None).get(f"/api/v1/submissions/{submission.pk}/archive").status_code == 401
