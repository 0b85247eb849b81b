"""Hidden means hidden: a canary planted in a hidden suite (test name, assertion text, request data) and in
what the service prints while tests run never appears in any page, API response or report, whoever asks.

docs/scoring.md "What a submitter may see": not for hidden splits: test source, test names, assertion messages,
and anything the service printed while tests ran.
"""
import shutil
import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from rest_framework.authtoken.models import Token

from evaluation.models import TaskResult
from evaluation.pipeline import run_execute_inline
from catalog.models import Split, System
from submissions.archives import zip_folders
from evaluation.services import submission_create
from tests.conftest import DEMO

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
CANARY = f"CANARY{uuid.uuid4().hex}"

CANARY_TEST = f'''

def test_{CANARY.lower()}(base_url):
    resp = requests.post(f"{{base_url}}/api/todos", json={{"title": "{CANARY}-input"}}, timeout=5)
    assert resp.status_code == 418, "{CANARY}-assertion"
'''

ECHO_APP = '''
@app.before_request
def echo_request_body():
    print("received", request.get_data(as_text=True), flush=True)
'''


def _plant(tmp_path):
    bench = tmp_path / "canary-bench"
    shutil.copytree(DEMO / "TodoList", bench / "TodoList", ignore=shutil.ignore_patterns("reference"))
    (bench / "TodoList" / "tests" / "test_todos.py").open("a").write(CANARY_TEST)
    repo = tmp_path / "submission" / "TodoList"
    shutil.copytree(DEMO / "TodoList" / "reference", repo)
    app = (repo / "app.py").read_text()
    (repo / "app.py").write_text(app.replace("next_id = count(1)\n", "next_id = count(1)\n" + ECHO_APP))
    return bench, repo


def _urls(submission, system) -> list[str]:
    pk, q = submission.pk, "?benchmark=canary&split=verified"
    return [
        "/", f"/{q}", "/?benchmark=canary&split=verified&language=python", f"/tasks/{q}", f"/tasks/TodoList/{q}",
        f"/systems/{system.pk}/", f"/submissions/{pk}/", f"/submissions/{pk}/status.json",
        f"/submissions/{pk}/report.json", f"/submissions/{pk}/report.csv", f"/submissions/{pk}/archive",
        f"/api/v1/leaderboard/{q}", f"/api/v1/leaderboard/{q}&language=python", f"/api/v1/tasks/{q}",
        "/api/v1/systems/", "/api/v1/submissions/", f"/api/v1/submissions/{pk}/",
        f"/api/v1/submissions/{pk}/report.json", f"/api/v1/submissions/{pk}/report.csv",
        f"/api/v1/submissions/{pk}/archive", "/api/v1/schema/",
        "/api/docs/", "/submit/", "/signup/", "/accounts/login/", "/reported/", "/api/v1/reported/",
    ]


def test_canary_never_leaves_the_platform(tmp_path, make_user):
    bench, repo = _plant(tmp_path)
    call_command("import_benchmark", str(bench), "--name", "canary", "--skip-reference-check",
                 stdout=open("/dev/null", "w"))
    split = Split.objects.get(benchmark__name="canary", benchmark__is_current=True, name="verified")
    owner, _ = make_user("owner")
    other, _ = make_user("other-team-admin")
    system = System.objects.create(team=owner.teams.get(), name="Canary Bot")
    submission = submission_create(system=system, split=split, user=owner, enqueue=False,
                                   upload=SimpleUploadedFile("s.zip", zip_folders({"TodoList": repo})))
    split.visibility = Split.Visibility.HIDDEN  # hidden splits take no upload: hide it once the submission exists
    split.save()
    run = run_execute_inline(run_id=submission.runs.get().pk)

    # The canary really reached the platform: the hidden test ran (and failed) and the service printed it.
    result = TaskResult.objects.get(run=run)
    assert run.status == "finished" and result.tests_total == 18 and result.tests_passed == 17
    assert any(CANARY.lower() in c["name"] for c in result.cases)

    clients = {"anonymous": Client(), "member": Client(), "other team": Client()}
    clients["member"].force_login(owner)
    clients["other team"].force_login(other)
    token = Token.objects.get(user=owner).key
    for who, client in clients.items():
        for url in _urls(submission, system):
            headers = {"HTTP_AUTHORIZATION": f"Token {token}"} if who == "member" and "/api/" in url else {}
            resp = client.get(url, **headers)
            assert resp.status_code < 500, (who, url, resp.status_code)
            body = b"".join(resp.streaming_content) if resp.streaming else resp.content
            assert CANARY.encode() not in body and CANARY.lower().encode() not in body, (who, url)
    member_page = clients["member"].get(f"/submissions/{submission.pk}/").content.decode()
    assert "start log" in member_page  # logs up to readiness are shown to the team, without the canary
