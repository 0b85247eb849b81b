"""Evaluation runs and their per-task results. Run state lives here, not in a Celery result backend."""
from django.db import models

from core.engine import EVALUATOR_VERSION
from core.engine.spec import Phase
from core.grading.taxonomy import LABELS, Outcome
from core.report import RunSummary


class RunStatus(models.TextChoices):
    """Where a run is: queued → running → finished (scored) or failed (the evaluation could not run), or cancelled
    (its submission's team stopped it; workers stop its tasks within seconds, nothing more is stored)."""

    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"
    FAILED = "failed", "Failed"
    CANCELLED = "cancelled", "Cancelled"


class RunPhase(models.TextChoices):
    """What a running run is doing: unpacking its archive (`extract`), then evaluating its tasks (`tasks`)."""

    QUEUED = "queued", "Queued"
    EXTRACT = "extract", "Unpacking the archive"
    TASKS = "tasks", "Evaluating tasks"
    FINISHED = "finished", "Finished"


#: A result's phase: one of the engine's phases of a task (core.engine.spec.Phase) while it runs, `retry` after a
#: platform fault released it, `done` once stored; blank while pending.
ResultPhase = models.TextChoices("ResultPhase", [("NONE", ("", "Pending"))]
                                 + [(p.name, (p.value, p.value.title())) for p in Phase]
                                 + [("RETRY", ("retry", "Waiting for a retry")), ("DONE", ("done", "Done"))])

#: The task outcomes of docs/scoring.md "Failure taxonomy" (core.grading.taxonomy.Outcome), blank until stored.
OutcomeChoice = models.TextChoices("OutcomeChoice", [("NONE", ("", "Not evaluated yet"))]
                                   + [(o.name, (o.value, LABELS[o])) for o in Outcome])


class EvaluationRun(models.Model):
    """One evaluation of one submission against the benchmark version of its split.

    `summary` holds the aggregates of docs/scoring.md "Report schema" ({"overall": M, "by_language": {...}})
    once every task result is final.
    """

    submission = models.ForeignKey("submissions.Submission", on_delete=models.CASCADE, related_name="runs")
    benchmark = models.ForeignKey("catalog.Benchmark", on_delete=models.PROTECT, related_name="runs")
    split = models.ForeignKey("catalog.Split", on_delete=models.PROTECT, related_name="runs", null=True,
                              help_text="the split (of one benchmark version) this run scored")
    status = models.CharField(max_length=16, choices=RunStatus.choices, default=RunStatus.QUEUED)
    phase = models.CharField(max_length=32, choices=RunPhase.choices, default=RunPhase.QUEUED)
    attempts = models.PositiveIntegerField(default=0)
    heartbeat = models.DateTimeField(null=True, blank=True)
    extracted_dir = models.CharField(max_length=500, blank=True)
    evaluator_version = models.CharField(max_length=32, blank=True)
    backend = models.CharField(max_length=32, blank=True)
    isolation = models.CharField(max_length=64, blank=True)
    environment = models.JSONField(default=dict, blank=True, help_text="tool versions: python, java, maven, uv")
    summary = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    background = models.BooleanField(default=False, help_text="the platform's own work (a seed, a re-score): "
                                     "evaluated on the background queue, never ahead of a team's upload")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"run {self.pk} of submission {self.submission_id}"

    @property
    def scores(self) -> RunSummary | None:
        """The typed `summary` (core.report.RunSummary), None until the run finished."""
        return RunSummary.from_json(self.summary)

    @property
    def is_outdated(self) -> bool:
        """True when scored on an older benchmark version or by an older evaluator."""
        return not self.benchmark.is_current or (bool(self.evaluator_version)
                                                 and self.evaluator_version != EVALUATOR_VERSION)


class TaskResult(models.Model):
    """The outcome of evaluating one task of one submission (docs/scoring.md "Metrics per task")."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        RUNNING = "running", "Running"
        DONE = "done", "Done"

    run = models.ForeignKey(EvaluationRun, on_delete=models.CASCADE, related_name="results")
    task = models.ForeignKey("catalog.Task", on_delete=models.PROTECT, related_name="results")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    phase = models.CharField(max_length=32, blank=True, choices=ResultPhase.choices)
    attempts = models.PositiveIntegerField(default=0)
    heartbeat = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=32, blank=True, choices=OutcomeChoice.choices)
    dsr = models.PositiveSmallIntegerField(default=0)
    ac = models.FloatField(null=True, blank=True)
    ac_declared = models.PositiveIntegerField(default=0)
    ac_implemented = models.PositiveIntegerField(default=0)
    endpoints = models.JSONField(default=list, help_text='[{"method", "path", "evidence": probe|static|none, "implemented"}]')
    tests_passed = models.PositiveIntegerField(default=0)
    tests_total = models.PositiveIntegerField(default=0)
    pass_at_1 = models.FloatField(default=0.0)
    solved = models.PositiveSmallIntegerField(default=0)
    durations = models.JSONField(default=dict, help_text="seconds per phase: install, start, test")
    logs = models.JSONField(default=dict, help_text="install/build/start logs, each capped at 64 KiB")
    cases = models.JSONField(default=list, help_text="per-test outcomes; shown only for public splits")
    detail = models.CharField(max_length=500, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["run", "task"], name="result_run_task")]
        ordering = ["task__name"]

    def __str__(self) -> str:
        return f"{self.task} in run {self.run_id}: {self.outcome or self.status}"


class WorkerBeat(models.Model):
    """A Celery worker seen alive: each worker writes its row every few seconds (evaluation.tasks), with the queues
    it consumes, and deletes it when it stops. The status page tells "no worker is running" from "the workers are
    busy" by it (evaluation.selectors.queue_has_worker)."""

    hostname = models.CharField(max_length=255, unique=True)
    queues = models.JSONField(default=list, help_text="the queues the worker consumes")
    concurrency = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField()
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.hostname} ({', '.join(self.queues)})"
