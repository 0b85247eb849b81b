"""What a worker host reads goes through Django's storage API (issue 14, "worker hosts that share nothing"): task
bundles fetched by hash and verified, archives streamed from the storage, on the filesystem and on a real
S3-compatible server (moto's server mode on loopback). No sandbox run."""
from __future__ import annotations

import filecmp
import io
import tarfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from catalog.bundles import (BundleError, bundle_fetch, bundle_name, bundle_pack, bundle_storage, bundle_store,
                             task_bundles_ensure, task_hidden_dir, task_reference_dir)
from catalog.models import Task
from catalog.services import system_create, team_for_user
from evaluation.models import EvaluationRun
from evaluation.pipeline import run_prepare
from evaluation.services import submission_create
from tests.s3_server import s3_server, s3_storages  # noqa: F401 (fixtures)


def _same_tree(a: Path, b: Path) -> bool:
    files = lambda root: sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())  # noqa: E731
    names = files(a)
    _, mismatch, errors = filecmp.cmpfiles(a, b, names, shallow=False)
    return bool(names) and names == files(b) and not mismatch and not errors


@pytest.fixture
def elsewhere(settings, tmp_path):
    """This process plays a worker host: no import folder of its own (another BENCHMARK_ROOT), its own cache."""
    settings.BENCHMARK_ROOT = tmp_path / "no-benchmarks-here"
    settings.EVALUATION_CACHE_ROOT = tmp_path / "cache"
    settings.EVALUATION_WORK_ROOT = tmp_path / "work"
    return tmp_path


def test_a_bundle_is_the_same_bytes_for_the_same_files_and_another_for_a_change(tmp_path):
    task = tmp_path / "task"
    (task / "tests").mkdir(parents=True)
    (task / "tests" / "test_a.py").write_text("def test_a():\n    assert True\n")
    (task / "README.md").write_text("# A\n")
    (task / "__pycache__").mkdir()
    (task / "__pycache__" / "x.pyc").write_bytes(b"cache")
    first, second = io.BytesIO(), io.BytesIO()
    bundle_pack(hidden=task, reference=None, out=first)
    (task / "README.md").touch()  # a new mtime, the same content
    bundle_pack(hidden=task, reference=None, out=second)
    assert first.getvalue() == second.getvalue()
    with tarfile.open(fileobj=io.BytesIO(first.getvalue())) as tar:
        members = tar.getmembers()
    assert [m.name for m in members] == ["hidden", "hidden/README.md", "hidden/tests", "hidden/tests/test_a.py"]
    assert {(m.mtime, m.uid, m.gid, m.uname, m.gname) for m in members} == {(0, 0, 0, "", "")}
    (task / "README.md").write_text("# B\n")
    third = io.BytesIO()
    bundle_pack(hidden=task, reference=None, out=third)
    assert third.getvalue() != first.getvalue()


def test_a_worker_host_without_the_import_folder_uses_the_verified_bundle(demo_split, elsewhere):
    todo = demo_split.tasks.select_related("benchmark").get(name="TodoList")
    original = Path(todo.benchmark.storage_dir)
    assert len(todo.bundle_sha256) == 64 and bundle_storage().exists(bundle_name(todo.bundle_sha256))
    hidden, reference = task_hidden_dir(todo), task_reference_dir(todo)
    assert hidden == elsewhere / "cache" / "bundles" / todo.bundle_sha256 / "hidden"
    assert _same_tree(hidden, original / "tasks" / "TodoList")
    assert _same_tree(reference, original / "references" / "TodoList")
    assert (reference / "start.sh").stat().st_mode & 0o100  # executable bits travel
    assert task_hidden_dir(todo) == hidden  # cached: fetched once


def test_a_bundle_whose_bytes_changed_in_the_storage_is_refused(demo_split, elsewhere, settings):
    todo = demo_split.tasks.select_related("benchmark").get(name="TodoList")
    forged = elsewhere / "forged-storage"
    (forged / "bundles").mkdir(parents=True)
    with bundle_storage().open(bundle_name(todo.bundle_sha256), "rb") as real:
        data = bytearray(real.read())
    data[-20] ^= 1
    (forged / bundle_name(todo.bundle_sha256)).write_bytes(bytes(data))
    settings.STORAGES = {**settings.STORAGES, "benchmarks": {
        "BACKEND": "django.core.files.storage.FileSystemStorage", "OPTIONS": {"location": forged}}}
    with pytest.raises(BundleError, match="does not match its hash"):
        task_hidden_dir(todo)
    assert not (elsewhere / "cache" / "bundles" / todo.bundle_sha256).exists()
    (forged / bundle_name(todo.bundle_sha256)).unlink()
    with pytest.raises(BundleError, match="not in the object storage"):
        bundle_fetch(sha256=todo.bundle_sha256)


def test_bundles_and_archives_live_in_s3_and_a_worker_host_reads_them_from_there(
        demo_split, make_user, demo_zip, s3_storages, elsewhere):
    client, bucket = s3_storages
    tasks = list(demo_split.tasks.select_related("benchmark"))
    expected = {t.pk: t.bundle_sha256 for t in tasks}
    Task.objects.filter(pk__in=expected).update(bundle_sha256="")  # imported before bundles: the lazy path
    user, _ = make_user("s3-user")
    system = system_create(team=team_for_user(user=user), name="S3 Tester")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("django.conf.settings.BENCHMARK_ROOT", Path(tasks[0].benchmark.storage_dir).parent.parent)
        submission = submission_create(system=system, split=demo_split, user=user, enqueue=False,
                                       upload=SimpleUploadedFile("alpha.zip", demo_zip("agent-alpha")))
    keys = {o["Key"] for o in client.list_objects_v2(Bucket=bucket)["Contents"]}
    assert f"media/{submission.archive.name}" in keys
    assert {f"benchmarks/{bundle_name(sha)}" for sha in expected.values()} <= keys  # packed when the run opened
    assert {t.pk: t.bundle_sha256 for t in Task.objects.filter(pk__in=expected)} == expected  # the same bytes
    with pytest.raises(NotImplementedError):
        submission.archive.path  # no local file: a worker must read it through the storage

    todo = Task.objects.select_related("benchmark").get(pk=tasks[0].pk)
    assert (task_hidden_dir(todo) / "README.md").is_file()
    run = submission.runs.get()
    result_ids = run_prepare(run_id=run.pk)
    run = EvaluationRun.objects.get(pk=run.pk)
    assert len(result_ids) == len(tasks)
    assert sorted(p.name for p in Path(run.extracted_dir).iterdir()) == sorted(
        p.name for p in (Path(__file__).resolve().parents[2] / "benchmarks/demo-submissions/agent-alpha").iterdir()
        if p.is_dir())
    assert not list(Path(run.extracted_dir).parent.glob("archive-*"))  # the fetched copy is gone


def test_a_worker_on_another_host_unpacks_its_own_copy_of_the_run(demo_split, make_user, demo_zip, s3_storages,
                                                                   settings, tmp_path):
    from evaluation.pipeline import run_local_dir

    settings.EVALUATION_WORK_ROOT = tmp_path / "first-host" / "work"
    user, _ = make_user("s3-hosts")
    system = system_create(team=team_for_user(user=user), name="Two Hosts")
    submission = submission_create(system=system, split=demo_split, user=user, enqueue=False,
                                   upload=SimpleUploadedFile("alpha.zip", demo_zip("agent-alpha")))
    run = submission.runs.get()
    run_prepare(run_id=run.pk)
    run = EvaluationRun.objects.get(pk=run.pk)
    assert run_local_dir(run=run) == Path(run.extracted_dir)
    settings.EVALUATION_WORK_ROOT = tmp_path / "second-host" / "work"
    Path(run.extracted_dir).rename(tmp_path / "out-of-reach")  # the first host's folder is not on this one
    copy = run_local_dir(run=run)
    assert copy == tmp_path / "second-host" / "runs" / str(run.pk)
    assert _same_tree(copy / "TodoList", tmp_path / "out-of-reach" / "TodoList")
    assert [p.name for p in copy.parent.iterdir()] == [str(run.pk)]  # no archive copy or staging folder left
