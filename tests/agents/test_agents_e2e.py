"""End to end: an endpoint submission of the shipped demo agent (answering as agent-alpha) is generated and
evaluated inline, and scores exactly what uploading benchmarks/demo-submissions/agent-alpha scores
(benchmarks/demo-submissions/EXPECTED.json and EXPECTED-java.json)."""
import json
import threading
import zipfile

import pytest

from evaluation.pipeline import run_execute_inline
from catalog.models import Split, System
from submissions.agents.demo_server import folder_source, make_server
from evaluation.generation import generation_execute
from evaluation.services import generation_start
from submissions.agents.services import endpoint_register
from submissions.archives import zip_submission_folder
from tests.agents.agent_kit import SECRET
from tests.conftest import DEMO_SUBMISSIONS, import_demo

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_demo_agent_endpoint_scores_like_the_uploaded_agent_alpha(make_user, agent_settings, tmp_path):
    import_demo()
    split = Split.objects.get(benchmark__name="demo", benchmark__is_current=True, name="verified")
    user, _ = make_user("e2e-endpoint")
    system = System.objects.create(team=user.teams.get(), name="Demo Agent Alpha (endpoint)")
    lines = []
    server = make_server(source=folder_source(DEMO_SUBMISSIONS / "agent-alpha"), secret=SECRET, log=lines.append)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        endpoint_register(system=system, url=f"http://127.0.0.1:{server.server_address[1]}/", secret=SECRET,
                          user=user)
        submission = generation_start(system=system, split=split, user=user, enqueue=False)
        submission = generation_execute(submission_id=submission.pk)
    finally:
        server.shutdown()
        server.server_close()
    assert submission.status == "queued", submission.error
    assert len(lines) == 6 and all(": 200," in line for line in lines), lines

    # The generated archive holds the same files, byte for byte, as the upload of agent-alpha.
    uploaded = tmp_path / "alpha.zip"
    uploaded.write_bytes(zip_submission_folder(DEMO_SUBMISSIONS / "agent-alpha"))
    generated, upload = zipfile.ZipFile(submission.archive.path), zipfile.ZipFile(uploaded)
    assert sorted(generated.namelist()) == sorted(upload.namelist())
    assert all(generated.read(n) == upload.read(n) for n in upload.namelist())

    run = run_execute_inline(run_id=submission.runs.get().pk)
    assert run.status == "finished", run.error
    expected = json.loads((DEMO_SUBMISSIONS / "EXPECTED.json").read_text())["agent-alpha"]
    expected.update(json.loads((DEMO_SUBMISSIONS / "EXPECTED-java.json").read_text())["agent-alpha"])
    got = {r.task.name: (r.tests_passed, r.tests_total) for r in run.results.select_related("task")}
    assert got == {name: (e["passed"], e["total"]) for name, e in expected.items()}
    outcomes = {r.task.name: r.outcome for r in run.results.select_related("task")}
    assert outcomes["Notes"] == "passed" and outcomes["InventoryService"] == "tests_failed"
    assert all(r.dsr == 1 for r in run.results.all())
