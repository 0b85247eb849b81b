"""Builders for finished submissions with chosen per-task results (through the real services), and upload archives."""
from __future__ import annotations

import io
import zipfile

from django.core.files.uploadedfile import SimpleUploadedFile

from core.engine.spec import EndpointEvidence, TaskEvaluation
from evaluation.pipeline import result_store, run_claim, run_extract, run_finalize_if_done
from catalog.models import Split, System, Team
from submissions.archives import zip_folders
from evaluation.services import submission_create


def zip_bytes(entries: dict[str, bytes]) -> bytes:
    """The bytes of a zip archive holding `entries` = {member name: content}, names as they are (an upload's
    archive, wrong or right)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    return buf.getvalue()


def finished_submission(*, split: Split, system_name: str, scores: dict[str, tuple[int, str, int]],
                        team: Team | None = None, is_public: bool = True,
                        evaluations: dict[str, TaskEvaluation] | None = None):
    """A submission of `system_name` whose run finished with `scores` = {task: (passed, outcome, dsr)}.

    Tasks not named score 0 as `missing`. Every declared endpoint counts as implemented when dsr is 1.
    `evaluations` = {task: TaskEvaluation} stores those engine results as they are (logs, cases and detail
    included), in place of `scores`. Returns the Submission.
    """
    team = team or Team.objects.get_or_create(name="factory-team")[0]
    system = System.objects.filter(name=system_name).first() or System.objects.create(team=team, name=system_name)
    first = split.tasks.order_by("name").first()
    upload = SimpleUploadedFile("s.zip", zip_folders({first.name: _tiny_repo(system_name)}))
    submission = submission_create(system=system, split=split, upload=upload, user=None, enqueue=False,
                                   is_public=is_public)
    run = run_claim(run_id=submission.runs.get().pk)
    run_extract(run=run)
    for result in run.results.select_related("task"):
        if evaluations and result.task.name in evaluations:
            result_store(result=result, evaluation=evaluations[result.task.name])
            continue
        passed, outcome, dsr = scores.get(result.task.name, (0, "missing", 0))
        endpoints = tuple(EndpointEvidence(e["method"], e["path"], bool(dsr), "probe" if dsr else "none")
                          for e in result.task.declared_endpoints)
        result_store(result=result, evaluation=TaskEvaluation(
            task=result.task.name, outcome=outcome, dsr=dsr, tests_passed=passed,
            tests_total=result.task.tests_total, endpoints=endpoints))
    run_finalize_if_done(run_id=run.pk)
    submission.refresh_from_db()
    return submission


def _tiny_repo(system_name: str):
    """A one-file repository of `system_name`'s own (two systems never upload byte-identical archives, which
    submissions.services.duplicate_check refuses across teams)."""
    import tempfile
    from pathlib import Path

    folder = Path(tempfile.mkdtemp(prefix="rg-tiny-"))
    (folder / "start.sh").write_text(f"echo {system_name!r}\n")
    return folder


def api_client_with_system(make_user, name: str, system: str):
    """An API client signed in by token as a new user `name` (the `make_user` fixture), who has created `system`."""
    from rest_framework.test import APIClient

    _, token = make_user(name)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.post("/api/v1/systems/", {"name": system}, format="json").status_code == 201
    return client


def api_upload(client, data: bytes, system: str = "AliceBot", name: str = "sub.zip", allow_missing: bool = True):
    """POST /api/v1/submissions/ with `data` as the archive file `name`, for `system` (`allow_missing`: queued even
    when it lacks tasks of the split); the response."""
    upload = io.BytesIO(data)
    upload.name = name
    return client.post("/api/v1/submissions/", {"system": system, "archive": upload, "allow_missing": allow_missing},
                       format="multipart")


def import_repogenesis_verified() -> Split:
    """Import RepoGenesis Verified from the shared copy (../shared/data/repogenesis/verified, with the project's
    manifest) and return its current `verified` split. Fails the test when the shared copy is missing."""
    from pathlib import Path

    import pytest
    from django.core.management import call_command

    root = Path(__file__).resolve().parents[1]
    release = root.parent / "shared" / "data" / "repogenesis" / "verified"
    if not release.is_dir():
        pytest.fail(f"the shared copy of RepoGenesis Verified is missing at {release}")
    call_command("import_benchmark", str(release), "--manifest", str(root / "benchmarks" / "repogenesis" /
                 "benchmark.json"), "--skip-reference-check", stdout=io.StringIO())
    return Split.objects.get(benchmark__name="repogenesis", benchmark__is_current=True, name="verified")
