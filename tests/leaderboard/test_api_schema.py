"""The API's contract: the OpenAPI schema types every JSON answer (operation ids and tags that read well, no bare
`object`), the output serializers return exactly what the selectors built, and the one exception handler
(leaderboard.api.errors) answers our domain errors with their status and message."""
from __future__ import annotations

import io
import json

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.serializers.json import DjangoJSONEncoder
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from catalog.models import ReportedResult, System, Team
from catalog.selectors import NotFound
from catalog.services import reported_result_verify
from leaderboard.api.board import PayloadSerializer
from leaderboard.api.errors import api_exception_handler
from submissions.agents.services import EndpointError
from submissions.models import AgentEndpoint, GenerationCall, Submission
from submissions.services import QuotaExceeded, SubmissionError
from tests.factories import finished_submission
from tests.leaderboard.test_reported import TWO_ROWS, import_reported, write_source

TAGS = {"auth", "leaderboard", "tasks", "systems", "submissions", "agent endpoints", "teams"}
#: The two report downloads: documented by docs/scoring.md "Report schema" and CSV_FIELDS, free-form here.
FREE_FORM = {"submission_report_json", "submission_report_csv"}
SCORES = {"TodoList": (17, "passed", 1), "InventoryService": (12, "tests_failed", 1), "Notes": (0, "start_crashed", 0)}


@pytest.fixture(scope="module")
def schema() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


def _operations(schema: dict):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


def _resolve(schema: dict, node: dict) -> dict:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def _is_typed(schema: dict, node: dict) -> bool:
    """True when `node` says what it holds: named properties, or an array of typed items."""
    node = _resolve(schema, node)
    if node.get("type") == "array":
        return _is_typed(schema, node.get("items", {}))
    return bool(node.get("properties"))


# --- the schema ----------------------------------------------------------------------------------------------
def test_the_schema_generates_without_a_warning_and_validates(tmp_path):
    err = io.StringIO()
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml"), stderr=err)
    assert "Warning" not in err.getvalue()


def test_every_operation_has_a_readable_id_and_one_of_our_tags(schema):
    ids = []
    for path, method, operation in _operations(schema):
        assert operation.get("operationId"), f"{method.upper()} {path} has no operation id"
        assert not operation["operationId"].startswith("v1_"), f"{method.upper()} {path}: a generated id"
        assert operation.get("tags") and set(operation["tags"]) <= TAGS, f"{method.upper()} {path}: {operation}"
        ids.append(operation["operationId"])
    assert len(ids) == len(set(ids))
    assert {"leaderboard_read", "tasks_list", "reported_list", "systems_list", "systems_create",
            "submissions_list", "submissions_create", "submission_read", "submission_report_json",
            "submission_report_csv", "submission_archive", "system_endpoint_read", "system_endpoint_update",
            "system_runs_create", "auth_token_create"} <= set(ids)


def test_no_json_answer_is_a_bare_object_except_the_report_downloads(schema):
    untyped = []
    for path, method, operation in _operations(schema):
        for code, response in operation["responses"].items():
            json_body = response.get("content", {}).get("application/json")
            if not code.startswith("2") or json_body is None:
                continue
            if not _is_typed(schema, json_body["schema"]):
                untyped.append(operation["operationId"])
    assert set(untyped) == {"submission_report_json"}
    report = next(op for _, _, op in _operations(schema) if op["operationId"] == "submission_report_json")
    assert "Free-form" in report["responses"]["200"]["description"]
    csv = next(op for _, _, op in _operations(schema) if op["operationId"] == "submission_report_csv")
    assert set(csv["responses"]["200"]["content"]) == {"text/csv"}


def test_the_leaderboard_row_schema_has_the_ranked_metrics_with_their_intervals(schema):
    board = next(op for _, _, op in _operations(schema) if op["operationId"] == "leaderboard_read")
    top = _resolve(schema, board["responses"]["200"]["content"]["application/json"]["schema"])
    assert {"benchmark", "version", "split", "language", "rows", "oracle", "excluded_tasks", "reported"} <= set(
        top["properties"])
    row = _resolve(schema, top["properties"]["rows"]["items"])
    for name in ("rank", "tied_with_leader", "origin", "system", "pass_at_1", "pass_at_1_ci", "ac", "ac_ci",
                 "dsr", "dsr_ci", "solved", "solved_ci"):
        assert name in row["properties"], name
    assert {"rank", "origin", "system", "pass_at_1", "pass_at_1_ci"} <= set(row["required"])
    assert row["properties"]["rank"]["type"] == "integer"
    assert row["properties"]["pass_at_1"]["type"] == "number"
    interval = row["properties"]["pass_at_1_ci"]
    assert interval["type"] == "array" and interval["items"]["type"] == "number"
    assert interval["minItems"] == interval["maxItems"] == 2
    oracle = _resolve(schema, top["properties"]["oracle"]["items"])
    assert {"system", "submission", "pass_at_1", "pass_at_1_ci", "tasks"} <= set(oracle["required"])


def test_language_is_a_documented_enum_query_parameter(schema):
    board = next(op for _, _, op in _operations(schema) if op["operationId"] == "leaderboard_read")
    params = {p["name"]: p for p in board["parameters"]}
    assert params["language"]["schema"]["enum"] == ["python", "java", "overall"]
    assert {"benchmark", "split"} <= set(params)


# --- the answers are the selectors' dicts, unchanged ---------------------------------------------------------
def _same_json(value) -> str:
    return json.dumps(json.loads(json.dumps(value, cls=DjangoJSONEncoder)), sort_keys=True)


@pytest.fixture
def rendered(monkeypatch):
    """Every (serializer name, dict in, data out) a PayloadSerializer rendered during the test, nested ones too."""
    seen = []
    original = PayloadSerializer.to_representation

    def spy(self, instance):
        data = original(self, instance)
        seen.append((type(self).__name__, instance, data))
        return data

    monkeypatch.setattr(PayloadSerializer, "to_representation", spy)
    return seen


def test_output_serializers_return_exactly_what_the_selectors_built(rendered, demo_split, make_user, demo_zip,
                                                                    tmp_path, settings):
    demo_split.tasks.filter(name="TodoList").update(
        defects=[{"kind": "order-dependent", "source": "manifest", "text": "test_list_empty runs after creates"}],
        fixes=[{"kind": "pytest-args", "args": ["-p", "no:randomly"], "why": "order-dependent suite"}],
        reference_runs=[{"outcome": "passed", "passed": 17, "total": 17, "seconds": 2.0},
                        {"outcome": "tests_failed", "passed": 16, "total": 17, "seconds": 2.1}])
    user, token = make_user("alice")
    team = user.teams.get()
    platform = Team.objects.create(name="platform")
    System.objects.create(team=platform, name="Oracle", type=System.Type.REFERENCE)
    finished_submission(split=demo_split, system_name="Oracle", team=platform,
                        scores={t.name: (t.tests_total, "passed", 1) for t in demo_split.tasks.all()})
    ours = finished_submission(split=demo_split, system_name="Ours", team=team, scores=SCORES)
    import_reported(write_source(tmp_path, TWO_ROWS))
    admin = User.objects.create_superuser("root", password="pw-Root-Secure-123")
    reported_result_verify(result=ReportedResult.objects.get(system="Paper Bot"), user=admin)
    # an endpoint submission with its generation log, one task without an answer
    Submission.objects.filter(pk=ours.pk).update(source=Submission.Source.ENDPOINT)
    todo, notes = demo_split.tasks.get(name="TodoList"), demo_split.tasks.get(name="Notes")
    GenerationCall.objects.create(submission=ours, task=todo, status="succeeded", http_status=200, duration=1.5,
                                  attempts=1, files=3, response_bytes=900,
                                  calls=[{"kind": "post", "url": "http://agent/", "status": 200, "seconds": 1.5,
                                          "error": ""}])
    GenerationCall.objects.create(submission=ours, task=notes, status="failed", attempts=3, reason="timed out",
                                  calls=[{"kind": "post", "url": "http://agent/", "status": None, "seconds": 20.0,
                                          "error": "timeout"}])
    AgentEndpoint.objects.create(system=ours.system, url="https://agent.example.org/", secret_last4="wxyz")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    upload = io.BytesIO(demo_zip("agent-alpha"))
    upload.name = "sub.zip"
    assert api.post("/api/v1/submissions/", {"system": "Ours", "archive": upload},
                    format="multipart").status_code == 201  # queued: no summary yet, pending progress

    for url in ["/api/v1/leaderboard/?language=python", "/api/v1/leaderboard/?language=java",
                "/api/v1/leaderboard/", "/api/v1/tasks/", "/api/v1/reported/", "/api/v1/submissions/",
                f"/api/v1/submissions/{ours.pk}/", f"/api/v1/systems/{ours.system.pk}/endpoint/"]:
        assert api.get(url).status_code == 200, url
    assert APIClient().get(f"/api/v1/submissions/{ours.pk}/").status_code == 200  # no HTTP calls for the public

    names = {name for name, _, _ in rendered}
    assert {"LeaderboardOutputSerializer", "LeaderboardRowOutputSerializer", "OracleRowOutputSerializer",
            "ReportedApartOutputSerializer", "TaskHealthOutputSerializer", "FixOutputSerializer",
            "ReportedResultOutputSerializer", "RunSummaryOutputSerializer", "RunProgressOutputSerializer",
            "GenerationCallLogOutputSerializer", "EndpointOutputSerializer"} <= names
    origins = {data["origin"] for name, _, data in rendered if name == "LeaderboardRowOutputSerializer"}
    assert origins == {"evaluated", "reported"}
    for name, given, data in rendered:
        assert set(data) == set(given), f"{name} changed the keys: {set(given) ^ set(data)}"
        assert _same_json(data) == _same_json(given), f"{name} changed a value"


# --- one handler for the domain errors -----------------------------------------------------------------------
@pytest.fixture
def api(make_user, demo_split):
    user, token = make_user("bob")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.post("/api/v1/systems/", {"name": "BobBot", "type": "agent"}, format="json").status_code == 201
    return client


def _upload(api, data: bytes, **fields):
    archive = io.BytesIO(data)
    archive.name = "sub.zip"
    return api.post("/api/v1/submissions/", {"system": "BobBot", "archive": archive, **fields}, format="multipart")


def test_a_used_quota_is_429_with_its_message(api, settings, demo_zip):
    settings.SUBMISSION_DAILY_QUOTA = 1
    assert _upload(api, demo_zip("agent-alpha")).status_code == 201
    resp = _upload(api, demo_zip("agent-alpha"))
    assert resp.status_code == 429 and set(resp.json()) == {"detail", "quota"} and "24 hours" in resp.json()["detail"]
    assert set(resp.json()["quota"]) == {"limit", "used", "remaining", "next_at"}


def test_a_refused_upload_is_400_with_its_reason(api):
    resp = _upload(api, b"this is not an archive")
    assert resp.status_code == 400 and set(resp.json()) == {"detail"}
    assert "not a .zip or .tar.gz" in resp.json()["detail"]


def test_a_refused_endpoint_run_is_400_with_its_reason(api):
    system = System.objects.get(name="BobBot")
    resp = api.post(f"/api/v1/systems/{system.pk}/runs/", {}, format="json")
    assert resp.status_code == 400 and "no agent endpoint" in resp.json()["detail"]


def test_an_unknown_split_is_404_on_the_read_apis_and_400_in_a_body(api, demo_zip):
    for url in ("/api/v1/leaderboard/?split=nope", "/api/v1/tasks/?split=nope", "/api/v1/tasks/?benchmark=nope"):
        resp = APIClient().get(url)
        assert resp.status_code == 404 and set(resp.json()) == {"detail"}, url
    assert APIClient().get("/api/v1/leaderboard/?split=nope").json() == {
        "detail": "benchmark 'demo' has no split 'nope'"}
    resp = _upload(api, demo_zip("agent-alpha"), split="nope")
    assert resp.status_code == 400 and resp.json() == {"detail": "benchmark 'demo' has no split 'nope'"}
    assert not Submission.objects.exists()


def test_an_unknown_language_is_400_naming_the_views(demo_split):
    resp = APIClient().get("/api/v1/leaderboard/?language=cobol")
    assert resp.status_code == 400
    assert resp.json() == {"language": ["unknown language 'cobol': use one of python, java, overall"]}


@pytest.mark.parametrize("exc,code,body", [
    (QuotaExceeded("used"), 429, {"detail": "used"}),
    (EndpointError("no endpoint"), 400, {"detail": "no endpoint"}),
    (SubmissionError("bad archive"), 400, {"detail": "bad archive"}),
    (NotFound("no split"), 404, {"detail": "no split"}),
    (ValidationError("bad value"), 400, {"detail": "bad value"}),
    (ValidationError({"name": ["taken"]}), 400, {"name": ["taken"]}),
])
def test_the_handler_maps_each_domain_error(exc, code, body):
    response = api_exception_handler(exc, {})
    assert response.status_code == code and response.data == body


def test_the_handler_leaves_other_errors_to_a_500():
    assert api_exception_handler(RuntimeError("bug"), {}) is None
    assert api_exception_handler(ValueError("not ours"), {}) is None
