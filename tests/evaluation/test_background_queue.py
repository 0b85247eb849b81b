"""The platform's own work (reference checks, seeds, re-scores, the recovery sweeps) goes to a background queue of
its own, so a team's upload never waits behind it; the status page's queue position, estimate and "no worker"
alarm count only the upload's own queue; the recovery sweep sends nothing for work that merely waits in its queue
(it did every sweep: duplicate messages). Real database, the real broker (the embedded filesystem transport, or
Redis in CI's PostgreSQL stage) on queues of the test's own."""
from __future__ import annotations

import uuid
from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from rest_framework.test import APIClient

from catalog.models import Team
from catalog.bundles import task_reference_dir
from catalog.services import system_create, team_for_user
from evaluation.models import EvaluationRun, TaskResult, WorkerBeat
from evaluation.seeding import seed_submission
from evaluation.services import submission_create, submission_rescore
from evaluation.tasks import recover_work, reference_check, result_run, run_prepare, runs_recover, queue_waiting
from submissions.archives import zip_folders
from tests.factories import finished_submission


@pytest.fixture
def private_dirs(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.EVALUATION_WORK_ROOT = tmp_path / "work"


@pytest.fixture
def queues(settings):
    """The two queues under names of this test's own (emptied afterwards): (teams' queue, background queue)."""
    suffix = uuid.uuid4().hex[:10]
    settings.CELERY_TASK_DEFAULT_QUEUE = teams = f"test-teams-{suffix}"
    settings.EVALUATION_BACKGROUND_QUEUE = background = f"test-background-{suffix}"
    yield teams, background
    with run_prepare.app.connection_for_write() as conn:
        for name in (teams, background):
            conn.default_channel.queue_purge(name)


def _purge(queue: str) -> None:
    """The broker loses every message of `queue` (a restarted Redis without persistence, a killed worker)."""
    with run_prepare.app.connection_for_write() as conn:
        conn.default_channel.queue_purge(queue)


@pytest.fixture
def upload(make_user, demo_split, demo_zip, private_dirs, django_capture_on_commit_callbacks):
    """upload(name) -> a team's submission of agent-alpha, queued and sent to the broker (after commit)."""
    def make(name: str = "anna", archive: str = "agent-alpha"):
        user, _ = make_user(name)
        system = system_create(team=team_for_user(user=user), name=f"{name.title()} Agent")
        with django_capture_on_commit_callbacks(execute=True):
            return submission_create(system=system, split=demo_split, user=user, upload=SimpleUploadedFile(
                f"{archive}.zip", demo_zip(archive), content_type="application/zip"))
    return make


def _age(run: EvaluationRun, minutes: int = 10) -> None:
    """The run was queued (and claimed) `minutes` ago and nothing has happened to it since."""
    then = timezone.now() - timedelta(minutes=minutes)
    EvaluationRun.objects.filter(pk=run.pk).update(created_at=then, heartbeat=then)


def test_background_work_is_routed_to_its_own_queue():
    router = run_prepare.app.amqp.router
    for task in (reference_check, runs_recover):
        assert router.route({}, task.name)["queue"].name == "background", task.name
    assert router.route({}, result_run.name)["queue"].name == "celery"


def test_an_upload_goes_to_the_teams_queue_and_seeds_and_rescores_to_the_background_one(
        upload, queues, demo_split, demo_zip, django_capture_on_commit_callbacks):
    teams, background = queues
    upload()
    assert (queue_waiting(teams), queue_waiting(background)) == (1, 0)

    system = system_create(team=Team.objects.create(name="platform"), name="Seeded")
    seed = seed_submission(system=system, split=demo_split, data=demo_zip("agent-beta"), filename="b.zip",
                           on_worker=True)
    tasks = demo_split.tasks.count()
    assert seed.background and (queue_waiting(teams), queue_waiting(background)) == (1, tasks)

    done = finished_submission(split=demo_split, system_name="Old", scores={})
    with django_capture_on_commit_callbacks(execute=True):
        again = submission_rescore(submission=done)
    assert again.background and (queue_waiting(teams), queue_waiting(background)) == (1, tasks + 1)


def test_the_recovery_sends_nothing_for_work_waiting_in_its_queue_and_once_for_lost_work(upload, queues):
    teams, _ = queues
    run = upload().runs.get()
    _age(run)

    assert recover_work() == {"runs": 0, "results": 0}  # its message waits in the queue: no duplicate
    assert queue_waiting(teams) == 1

    _purge(teams)  # the message is lost
    assert recover_work() == {"runs": 1, "results": 0}
    assert recover_work() == {"runs": 0, "results": 0}  # sent once, not at every sweep
    assert queue_waiting(teams) == 1

    _purge(teams)
    run_prepare(run.pk)  # a worker unpacks the run and sends one job per task; they wait behind other uploads
    tasks = run.results.count()
    _age(run)
    assert queue_waiting(teams) == tasks
    assert recover_work() == {"runs": 0, "results": 0}
    assert queue_waiting(teams) == tasks

    _purge(teams)  # lost
    assert recover_work() == {"runs": 0, "results": tasks}
    assert recover_work() == {"runs": 0, "results": 0}
    assert queue_waiting(teams) == tasks


def test_a_result_whose_worker_died_is_sent_again_even_when_its_queue_is_busy(upload, queues):
    teams, _ = queues
    first, second = upload("anna").runs.get(), upload("bert", "agent-beta").runs.get()
    _purge(teams)
    run_prepare(first.pk)
    dead = first.results.order_by("pk").first()
    TaskResult.objects.filter(pk=dead.pk).update(status=TaskResult.Status.RUNNING,
                                                 heartbeat=timezone.now() - timedelta(minutes=10))
    _age(first)

    assert recover_work() == {"runs": 0, "results": 1}  # the dead one; its pending siblings still wait
    assert TaskResult.objects.get(pk=dead.pk).status == TaskResult.Status.PENDING
    assert EvaluationRun.objects.get(pk=second.pk).status == "queued"


def _beat(hostname: str, queues: list[str], seconds_ago: float = 0) -> None:
    seen = timezone.now() - timedelta(seconds=seconds_ago)
    WorkerBeat.objects.update_or_create(hostname=hostname, defaults={
        "queues": queues, "concurrency": 1, "started_at": seen, "seen_at": seen})


ALARM = "No worker has picked this submission up"


def test_no_worker_alarm_only_when_no_worker_of_the_uploads_queue_was_seen(upload, client):
    submission = upload()
    client.force_login(submission.submitted_by)
    EvaluationRun.objects.filter(submission=submission).update(created_at=timezone.now() - timedelta(minutes=5))
    page = lambda: client.get(f"/submissions/{submission.pk}/").content.decode()  # noqa: E731

    assert ALARM in page()  # nothing has ever been seen
    _beat("background@host", ["background"])
    assert ALARM in page()  # only the background worker runs: nothing evaluates uploads
    _beat("worker@host", ["celery"], seconds_ago=600)
    assert ALARM in page()  # gone ten minutes ago
    _beat("worker@host", ["celery"])
    assert ALARM not in page()  # alive (busy or not): the upload waits for it, no alarm


def test_the_estimate_counts_only_work_ahead_in_the_uploads_own_queue(upload, demo_split, demo_zip, settings):
    settings.EVALUATION_TASK_CONCURRENCY = 2
    history = finished_submission(split=demo_split, system_name="History", scores={})
    TaskResult.objects.filter(run__submission=history).update(durations={"install": 10.0, "test": 20.0})
    seeded = system_create(team=Team.objects.create(name="platform"), name="Seeded")
    references = zip_folders({t.name: task_reference_dir(t) for t in demo_split.tasks.all()})
    seed = seed_submission(system=seeded, split=demo_split, data=references, filename="r.zip",
                           on_worker=True)  # the platform's run, unpacked: its tasks wait in the background queue
    assert seed.background

    ahead, mine = upload("anna"), upload("bert", "agent-beta")
    before = timezone.now()
    api = APIClient()
    api.force_authenticate(mine.submitted_by)
    queue = api.get(f"/api/v1/submissions/{mine.pk}/").json()["queue"]
    tasks = demo_split.tasks.count()
    assert (queue["position"], queue["ahead"], queue["tasks_ahead"], queue["background"]) == (2, 1, tasks, False)
    start = datetime.fromisoformat(queue["estimated_start"])
    assert abs((start - before).total_seconds() - -(-tasks // 2) * 30) < 5  # the seed's tasks do not count

    api.force_authenticate(ahead.submitted_by)
    first = api.get(f"/api/v1/submissions/{ahead.pk}/").json()["queue"]
    assert (first["position"], first["tasks_ahead"]) == (1, 0)
    assert abs((datetime.fromisoformat(first["estimated_start"]) - before).total_seconds()) < 5


def test_a_platform_run_says_it_waits_with_the_background_work(demo_split, client, private_dirs):
    done = finished_submission(split=demo_split, system_name="Old", scores={})
    again = submission_rescore(submission=done)
    client.force_login(User.objects.create_user("staffer", is_staff=True, is_superuser=True))

    page = client.get(f"/submissions/{done.pk}/").content.decode()

    assert again.background
    assert "evaluated in the background queue after the teams' uploads" in page and "no estimate" in page
