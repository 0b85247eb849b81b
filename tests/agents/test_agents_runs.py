"""Endpoint runs through the site: registration and its secret, split visibility, starting a run (page and
API), the generation against the demo agent and hand-made agents, the packed archive and its download."""
import io
import json
import threading
import time
import zipfile
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from evaluation.models import TaskResult
from evaluation.pipeline import result_claim, result_evaluate, run_claim, run_extract
from catalog.models import Split, System
from submissions.agents.demo_server import folder_source, make_server
from evaluation.generation import generation_claim, generation_execute
from evaluation.services import generation_start
from submissions.agents.services import EndpointError, endpoint_register
from submissions.models import AgentEndpoint, GenerationCall, Submission
from tests.agents.agent_kit import ROOT, SECRET, repo_zip

DEMO_TASKS = ["Bookstore", "InventoryService", "Notes", "Tic-Tac-Toe", "TodoList", "UserManagement_2"]


@pytest.fixture
def team(make_user, demo_split, agent_settings):
    """(user, system, API client) of a team with one system."""
    user, token = make_user("agent-team")
    system = System.objects.create(team=user.teams.get(), name="EndpointBot")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return user, system, api


@pytest.fixture
def demo_agent():
    """demo_agent(system, secret=SECRET, **kw) -> URL of the shipped demo agent serving that system's folders."""
    servers = []

    def start(system: str = "agent-beta", secret: str = SECRET, **kwargs) -> str:
        root = ROOT / "benchmarks" / ("demo" if system == "reference" else f"demo-submissions/{system}")
        server = make_server(source=folder_source(root, subfolder="reference" if system == "reference" else ""),
                             secret=secret, **kwargs)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def _start(system, user, split=None, **kw):
    split = split or Split.objects.get(benchmark__name="demo", benchmark__is_current=True, name="verified")
    return generation_start(system=system, split=split, user=user, enqueue=False, **kw)


# --- the secret ------------------------------------------------------------------------------
def test_secret_is_encrypted_at_rest_and_never_shown(team, client, demo_agent):
    user, system, api = team
    url = demo_agent()
    resp = api.put(f"/api/v1/systems/{system.pk}/endpoint/", {"url": url, "secret": SECRET}, format="json")
    assert resp.status_code == 200, resp.content
    assert resp.json() == {"system": "EndpointBot", "url": url, "secret_hint": f"…{SECRET[-4:]}",
                           "updated_at": resp.json()["updated_at"]}
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM submissions_agentendpoint")
        raw = repr(cursor.fetchall())
    assert SECRET not in raw and SECRET[:12] not in raw
    submission = _start(system, user)
    generation_execute(submission_id=submission.pk)
    client.force_login(user)
    pages = [client.get(f"/systems/{system.pk}/"), client.get(f"/submissions/{submission.pk}/"),
             client.get(f"/submissions/{submission.pk}/status.json"),
             api.get(f"/api/v1/systems/{system.pk}/endpoint/"), api.get(f"/api/v1/submissions/{submission.pk}/"),
             api.get("/api/v1/submissions/"), api.get("/api/v1/systems/"), client.get("/admin/")]
    for page in pages:
        assert page.status_code < 400 or page.status_code == 302
        assert SECRET.encode() not in page.content
    assert f"…{SECRET[-4:]}".encode() in pages[0].content


def test_a_blank_secret_keeps_the_registered_one_and_a_short_one_is_refused(team, demo_agent):
    _user, system, _ = team
    with pytest.raises(EndpointError, match="Give a secret"):
        endpoint_register(system=system, url=demo_agent(), secret="")
    with pytest.raises(EndpointError, match="16 to 500"):
        endpoint_register(system=system, url=demo_agent(), secret="short")
    first = endpoint_register(system=system, url=demo_agent(), secret=SECRET)
    again = endpoint_register(system=system, url=demo_agent(), secret="")
    assert again.pk == first.pk and again.secret_encrypted == first.secret_encrypted


def test_other_teams_cannot_see_or_change_the_endpoint(team, make_user, demo_agent, client):
    _user, system, _ = team
    endpoint_register(system=system, url=demo_agent(), secret=SECRET)
    other, token = make_user("intruder")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get(f"/api/v1/systems/{system.pk}/endpoint/").status_code == 403
    assert api.put(f"/api/v1/systems/{system.pk}/endpoint/", {"url": demo_agent()}, format="json").status_code == 403
    assert api.post(f"/api/v1/systems/{system.pk}/runs/", {}, format="json").status_code == 403
    client.force_login(other)
    assert client.post(f"/systems/{system.pk}/run/", {"split": 1}).status_code == 403
    assert b"Agent endpoint" not in client.get(f"/systems/{system.pk}/").content


# --- split visibility ------------------------------------------------------------------------
@pytest.mark.parametrize("visibility,message", [("endpoint-only", "only agent-endpoint submissions"),
                                                ("hidden", "hidden and takes no uploads")])
def test_uploads_are_refused_on_non_public_splits(team, demo_split, demo_zip, visibility, message):
    _, _, api = team
    demo_split.visibility = visibility
    demo_split.save()
    upload = io.BytesIO(demo_zip("agent-alpha"))
    upload.name = "alpha.zip"
    resp = api.post("/api/v1/submissions/", {"system": "EndpointBot", "archive": upload}, format="multipart")
    assert resp.status_code == 400 and message in resp.json()["detail"]
    assert not Submission.objects.exists()


def test_endpoint_only_readmes_are_never_published(team, demo_split, client):
    sentence = b"Build a small REST service that manages a to-do list"
    assert sentence in client.get("/tasks/TodoList/").content  # public: published
    demo_split.visibility = "endpoint-only"
    demo_split.save()
    tasks = client.get("/api/v1/tasks/").json()["tasks"]
    assert tasks and all("readme" not in t for t in tasks)
    for url in ("/tasks/TodoList/", "/tasks/", "/api/v1/tasks/", "/api/v1/schema/"):
        assert sentence not in client.get(url).content, url
    assert b"not published" in client.get("/tasks/TodoList/").content


def test_endpoint_runs_on_endpoint_only_splits_and_hidden_ones_for_admins_only(team, demo_split, demo_agent):
    user, system, api = team
    endpoint_register(system=system, url=demo_agent(), secret=SECRET)
    demo_split.visibility = "endpoint-only"
    demo_split.save()
    resp = api.post(f"/api/v1/systems/{system.pk}/runs/", {}, format="json")
    assert resp.status_code == 201 and resp.json()["status"] == "generating", resp.content
    Submission.objects.update(status="failed")
    demo_split.visibility = "hidden"
    demo_split.save()
    resp = api.post(f"/api/v1/systems/{system.pk}/runs/", {}, format="json")
    assert resp.status_code == 400 and "hidden" in resp.json()["detail"]
    user.is_staff = True
    user.save()
    assert api.post(f"/api/v1/systems/{system.pk}/runs/", {}, format="json").status_code == 201


# --- starting and generating -----------------------------------------------------------------
def test_run_on_split_button_starts_a_generating_submission(team, client, demo_agent, django_capture_on_commit_callbacks):
    user, system, _ = team
    endpoint_register(system=system, url=demo_agent(), secret=SECRET)
    client.force_login(user)
    page = client.get(f"/systems/{system.pk}/").content.decode()
    assert "Run on split" in page
    split = Split.objects.get(benchmark__name="demo", benchmark__is_current=True, name="verified")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        resp = client.post(f"/systems/{system.pk}/run/", {"split": split.pk, "is_public": "on"})
    submission = Submission.objects.get()
    assert resp.status_code == 302 and resp["Location"] == f"/submissions/{submission.pk}/"
    assert submission.status == "generating" and submission.source == "endpoint"
    assert [c.task.name for c in submission.generation_calls.all()] == DEMO_TASKS
    assert len(callbacks) == 1  # submission_generate is sent after commit
    detail = client.get(f"/submissions/{submission.pk}/").content.decode()
    assert "Generation" in detail and "pending" in detail
    second = client.post(f"/systems/{system.pk}/run/", {"split": split.pk}, follow=True).content.decode()
    assert "already has a run calling its agent" in second


def test_a_run_without_endpoint_is_refused(team):
    _user, system, api = team
    resp = api.post(f"/api/v1/systems/{system.pk}/runs/", {}, format="json")
    assert resp.status_code == 400 and "no agent endpoint" in resp.json()["detail"]


def test_generation_packs_the_answers_and_queues_the_usual_evaluation(team, demo_agent):
    """agent-beta has no Tic-Tac-Toe: the demo agent answers 404, the task is scored `missing` with the reason."""
    user, system, api = team
    endpoint_register(system=system, url=demo_agent("agent-beta"), secret=SECRET)
    submission = _start(system, user)
    done = generation_execute(submission_id=submission.pk)
    assert done.status == "queued" and done.archive_name == f"generated-{submission.pk}.zip"
    calls = {c.task.name: c for c in GenerationCall.objects.filter(submission=submission).select_related("task")}
    assert {n for n, c in calls.items() if c.status == "succeeded"} == set(DEMO_TASKS) - {"Tic-Tac-Toe"}
    failed = calls["Tic-Tac-Toe"]
    assert failed.status == "failed" and failed.http_status == 404 and "HTTP 404" in failed.reason
    assert all(c.attempts == 1 and c.duration is not None and c.calls for c in calls.values())
    assert calls["TodoList"].files > 0
    assert done.missing_reasons == {"Tic-Tac-Toe": f"the agent endpoint gave no repository: {failed.reason}"}

    names = zipfile.ZipFile(done.archive.path).namelist()
    assert {n.split("/")[0] for n in names} == set(DEMO_TASKS) - {"Tic-Tac-Toe"}
    expected = (ROOT / "benchmarks/demo-submissions/agent-beta/TodoList/server.py").read_bytes()
    assert zipfile.ZipFile(done.archive.path).read("TodoList/server.py") == expected

    data = api.get(f"/api/v1/submissions/{submission.pk}/").json()
    assert data["source"] == "endpoint" and data["generation"]["done"] == 6 and data["generation"]["total"] == 6
    assert data["run"]["progress"]["total"] == 6
    assert next(t for t in data["generation"]["tasks"] if t["task"] == "Tic-Tac-Toe")["http_status"] == 404

    # The missing task's result says why (the engine never gets a folder for it).
    run = run_claim(run_id=done.runs.get().pk)
    run_extract(run=run)
    result = result_claim(result_id=TaskResult.objects.get(run=run, task__name="Tic-Tac-Toe").pk)
    evaluation = result_evaluate(result=result)
    assert evaluation.outcome == "missing" and "HTTP 404" in evaluation.detail


def test_an_endpoint_answering_the_reference_solutions_is_not_scored(team, demo_agent):
    """The near-copy check of uploads applies to what an agent endpoint answers (break-it pass 13 of issue 13): an
    endpoint serving the platform's public reference solutions fails without a run, saying why; one serving its
    own outputs is queued and keeps a sketch of each task for later comparisons."""
    user, system, _ = team
    endpoint_register(system=system, url=demo_agent("reference"), secret=SECRET)

    done = generation_execute(submission_id=_start(system, user).pk)

    assert done.status == "failed" and not done.runs.exists()
    assert done.error.startswith("The agent endpoint's answers were not scored: The archive's tasks 'Bookstore' "
                                 "(100%), 'InventoryService' (100%)")
    assert "the platform's reference solution nearly whole" in done.error
    endpoint_register(system=system, url=demo_agent("agent-beta"), secret=SECRET)
    own = generation_execute(submission_id=_start(system, user).pk)
    assert own.status == "queued" and set(own.task_sketches) == set(DEMO_TASKS) - {"Tic-Tac-Toe"}


def test_the_team_downloads_the_generated_archive_and_nobody_else(team, demo_agent, make_user, client):
    user, system, api = team
    endpoint_register(system=system, url=demo_agent("agent-alpha"), secret=SECRET)
    submission = _start(system, user)
    assert api.get(f"/api/v1/submissions/{submission.pk}/archive").status_code == 404  # not generated yet
    generation_execute(submission_id=submission.pk)
    resp = api.get(f"/api/v1/submissions/{submission.pk}/archive")
    assert resp.status_code == 200
    body = b"".join(resp.streaming_content)
    assert {n.split("/")[0] for n in zipfile.ZipFile(io.BytesIO(body)).namelist()} == set(DEMO_TASKS)
    client.force_login(user)
    assert client.get(f"/submissions/{submission.pk}/archive").status_code == 200
    assert b"download</a>" in client.get(f"/submissions/{submission.pk}/").content
    other, token = make_user("curious")
    stranger = APIClient()
    stranger.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert stranger.get(f"/api/v1/submissions/{submission.pk}/archive").status_code == 403
    assert APIClient().get(f"/api/v1/submissions/{submission.pk}/archive").status_code in (401, 403)
    client.force_login(other)
    assert client.get(f"/submissions/{submission.pk}/archive").status_code == 403


def test_the_endpoint_url_and_http_calls_are_shown_to_the_team_only(team, demo_agent, client):
    user, system, api = team
    url = demo_agent("agent-alpha")
    endpoint_register(system=system, url=url, secret=SECRET)
    submission = generation_execute(submission_id=_start(system, user).pk)
    public = APIClient().get(f"/api/v1/submissions/{submission.pk}/").json()
    assert public["generation"]["done"] == 6 and "calls" not in public["generation"]["tasks"][0]
    for page in (APIClient().get(f"/api/v1/submissions/{submission.pk}/"), client.get(f"/submissions/{submission.pk}/"),
                 client.get(f"/submissions/{submission.pk}/status.json"), client.get(f"/systems/{system.pk}/")):
        assert url.rstrip("/").encode() not in page.content
    own = api.get(f"/api/v1/submissions/{submission.pk}/").json()
    assert own["generation"]["tasks"][0]["calls"][0]["url"] == url


def test_the_demo_agent_refuses_a_wrong_secret(team, demo_agent):
    user, system, _ = team
    endpoint_register(system=system, url=demo_agent(secret="another-secret-0123456789"), secret=SECRET)
    submission = generation_execute(submission_id=_start(system, user).pk)
    assert submission.status == "failed" and "HTTP 401" in submission.error
    assert not Submission.objects.filter(pk=submission.pk, archive__gt="").exists()


def test_an_agent_giving_nothing_fails_the_submission_without_using_quota(team, agent_server, settings):
    user, system, _ = team
    settings.SUBMISSION_DAILY_QUOTA = 1
    server = agent_server(lambda h: h.reply(200, b"garbage", "text/plain"))
    endpoint_register(system=system, url=server.url, secret=SECRET)
    submission = generation_execute(submission_id=_start(system, user).pk)
    assert submission.status == "failed" and "neither a zip" in submission.error
    assert not submission.runs.exists()
    _start(system, user)  # the failed run did not use the quota


def test_tar_gz_json_and_wrapped_answers_become_task_folders(team, agent_server):
    import tarfile

    def behaviour(h):
        task = json.loads(h.body)["task"]
        if task == "TodoList":  # tar.gz with a single wrapping folder: unwrapped
            buf = io.BytesIO()
            with tarfile.open(fileobj=buf, mode="w:gz") as tf:
                for name, data in (("repo/start.sh", b"python app.py\n"), ("repo/src/app.py", b"print(1)\n")):
                    info = tarfile.TarInfo(name)
                    info.size = len(data)
                    tf.addfile(info, io.BytesIO(data))
            h.reply(200, buf.getvalue(), "application/gzip")
        elif task == "Notes":
            h.reply(200, json.dumps({"files": {"start.sh": "x\n", "notes/app.py": "y\n"}}).encode(), "application/json")
        else:
            h.reply(200, repo_zip({"src/only.py": "z\n"}))  # one folder and nothing beside it: unwrapped too

    user, system, _ = team
    endpoint_register(system=system, url=agent_server(behaviour).url, secret=SECRET)
    submission = generation_execute(submission_id=_start(system, user).pk)
    names = set(zipfile.ZipFile(submission.archive.path).namelist())
    assert {"TodoList/start.sh", "TodoList/src/app.py", "Notes/start.sh", "Notes/notes/app.py",
            "Bookstore/only.py"} <= names


def test_unsafe_archives_from_the_agent_are_refused_per_task(team, agent_server):
    def behaviour(h):
        task = json.loads(h.body)["task"]
        if task == "TodoList":
            buf = io.BytesIO()
            with zipfile.ZipFile(buf, "w") as zf:
                zf.writestr("../../escape.sh", "echo pwned")
            h.reply(200, buf.getvalue())
        elif task == "Notes":
            buf = io.BytesIO()
            with zipfile.ZipFile(buf, "w") as zf:
                info = zipfile.ZipInfo("link")
                info.external_attr = 0o120777 << 16
                zf.writestr(info, "/etc/passwd")
            h.reply(200, buf.getvalue())
        else:
            h.reply(200, repo_zip())

    user, system, _ = team
    endpoint_register(system=system, url=agent_server(behaviour).url, secret=SECRET)
    submission = generation_execute(submission_id=_start(system, user).pk)
    calls = {c.task.name: c for c in submission.generation_calls.select_related("task")}
    assert calls["TodoList"].status == "failed" and "escapes" in calls["TodoList"].reason
    assert calls["Notes"].status == "failed" and "link" in calls["Notes"].reason
    assert submission.status == "queued" and calls["Bookstore"].status == "succeeded"
    assert not (ROOT / "var" / "escape.sh").exists()


def test_at_most_n_tasks_are_in_flight_per_endpoint(team, agent_server, settings):
    settings.AGENT_MAX_IN_FLIGHT = 2
    server = agent_server(lambda h: (time.sleep(0.3), h.reply(200, repo_zip())))
    user, system, _ = team
    endpoint_register(system=system, url=server.url, secret=SECRET)
    t0 = time.monotonic()
    generation_execute(submission_id=_start(system, user).pk)
    assert len(server.requests) == 6 and server.max_active == 2
    assert time.monotonic() - t0 >= 0.9  # three waves of two
    bodies = {b["task"]: b for b in (json.loads(r["body"]) for r in server.requests)}
    assert set(bodies) == set(DEMO_TASKS)
    java = bodies["InventoryService"]
    assert java["language"] == "java" and "<artifactId>" in java["files"]["pom.xml"]  # the handed-out pom.xml
    assert java["readme"].startswith("#") and java["deadline_seconds"] == 20 and java["port"] > 0
    assert bodies["TodoList"]["framework"] == "flask" and bodies["TodoList"]["files"] == {}
    assert all(r["headers"]["Authorization"] == f"Bearer {SECRET}" for r in server.requests)


def test_the_claim_is_idempotent_and_a_stale_one_is_taken_over(team, demo_agent):
    user, system, _ = team
    endpoint_register(system=system, url=demo_agent(), secret=SECRET)
    submission = _start(system, user)
    assert generation_claim(submission_id=submission.pk) is not None
    assert generation_claim(submission_id=submission.pk) is None  # a second delivery while the first works
    assert generation_execute(submission_id=submission.pk) is None
    Submission.objects.filter(pk=submission.pk).update(generation_heartbeat=timezone.now() - timedelta(minutes=5))
    GenerationCall.objects.filter(submission=submission, task__name="Notes").update(status="running")
    done = generation_execute(submission_id=submission.pk)  # the worker died: taken over
    assert done.status == "queued" and done.generation_attempts == 2
    assert generation_execute(submission_id=submission.pk) is None  # finished: nothing left to claim
    assert done.runs.count() == 1


def test_the_celery_task_turns_platform_faults_into_a_failed_submission(team, demo_agent, monkeypatch):
    from evaluation import generation
    from evaluation.tasks import submission_generate

    user, system, _ = team
    endpoint_register(system=system, url=demo_agent(), secret=SECRET)
    submission = _start(system, user)
    monkeypatch.setattr(generation, "generation_execute", lambda **kw: 1 / 0)
    submission_generate.run(submission.pk)  # does not raise
    submission.refresh_from_db()
    assert submission.status == "failed" and "ZeroDivisionError" in submission.error
    assert set(submission.generation_calls.values_list("status", flat=True)) == {"failed"}


def test_a_removed_endpoint_fails_the_pending_calls(team, demo_agent):
    user, system, _ = team
    endpoint_register(system=system, url=demo_agent(), secret=SECRET)
    submission = _start(system, user)
    AgentEndpoint.objects.all().delete()
    done = generation_execute(submission_id=submission.pk)
    assert done.status == "failed" and "removed" in done.error
