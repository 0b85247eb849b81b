"""Submissions: one system's generated repositories for one split (docs/scoring.md "Terms")."""
from django.db import models


def _archive_path(instance: "Submission", filename: str) -> str:
    suffix = ".zip" if filename.lower().endswith(".zip") else ".tar.gz"
    return f"submissions/{instance.system_id}/{instance.token}{suffix}"


class Submission(models.Model):
    """An archive (one folder per task) waiting for, under, or done with evaluation.

    The archive is uploaded (`source` upload) or built by the platform from the answers of the system's
    agent endpoint (`source` endpoint, see docs/agent-protocol.md). `status` follows the run:
    [generating →] queued → running → finished (scored) or failed (the evaluation itself could not run,
    e.g. the archive could not be extracted, or the agent produced no repository at all), or cancelled by a member
    of its team while generating, queued or running (`cancelled_by`, `finished_at`). A finished public submission
    can be withdrawn from the public board: it then stays stored (for its team and the admins), private, with who
    withdrew it, when and why (`withdrawn_by`, `withdrawn_at`, `withdrawn_reason`).
    """

    class Status(models.TextChoices):
        GENERATING = "generating", "Generating"
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        FAILED = "failed", "Failed"
        CANCELLED = "cancelled", "Cancelled"

    class Source(models.TextChoices):
        UPLOAD = "upload", "Uploaded archive"
        ENDPOINT = "endpoint", "Agent endpoint"

    system = models.ForeignKey("catalog.System", on_delete=models.CASCADE, related_name="submissions")
    split = models.ForeignKey("catalog.Split", on_delete=models.PROTECT, related_name="submissions")
    submitted_by = models.ForeignKey("auth.User", on_delete=models.SET_NULL, null=True, blank=True)
    token = models.CharField(max_length=32, unique=True)
    archive = models.FileField(upload_to=_archive_path, max_length=300)
    archive_name = models.CharField(max_length=255)
    archive_bytes = models.PositiveBigIntegerField(default=0)
    archive_sha256 = models.CharField(max_length=64)
    content_sha256 = models.CharField(max_length=64, blank=True, default="",
                                      help_text="content digest of the unpacked repository (core.engine.archive."
                                                "content_digest: sorted paths and their contents' sha256), the "
                                                "same whatever the archive's format or compression; '' when not "
                                                "computed (endpoint runs, uploads before it existed)")
    task_sketches = models.JSONField(default=dict, blank=True,
                                     help_text="{task: bottom-k sketch of its folder's source lines} (core.engine."
                                               "similarity), what later uploads of other teams are compared with "
                                               "(submissions.services.near_copy_check); {} when not computed "
                                               "(endpoint runs, uploads before it existed)")
    note = models.CharField(max_length=300, blank=True)
    is_public = models.BooleanField(default=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    error = models.TextField(blank=True, help_text="why the evaluation could not run (status failed)")
    layout_warnings = models.JSONField(default=list, help_text="unknown top-level folders and similar")
    source = models.CharField(max_length=16, choices=Source.choices, default=Source.UPLOAD)
    missing_reasons = models.JSONField(default=dict, blank=True,
                                       help_text="{task: why its folder is absent}, e.g. the agent's failed "
                                                 "generation; used as the detail of its `missing` result")
    generation_heartbeat = models.DateTimeField(null=True, blank=True,
                                                help_text="refreshed while a worker calls the agent endpoint")
    generation_attempts = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    cancelled_by = models.ForeignKey("auth.User", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    withdrawn_at = models.DateTimeField(null=True, blank=True, help_text="when it was withdrawn from the board")
    withdrawn_by = models.ForeignKey("auth.User", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    withdrawn_reason = models.CharField(max_length=500, blank=True)
    notified_at = models.DateTimeField(null=True, blank=True, help_text="when its team was told it finished or "
                                                                       "failed (e-mail, webhook); reset by a rescore")

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"#{self.pk} {self.system} on {self.split}"

    @property
    def is_active(self) -> bool:
        """True while generating, queued or running: what a cancel can stop."""
        return self.status in ACTIVE_STATUSES

    @property
    def is_withdrawn(self) -> bool:
        return self.withdrawn_at is not None


#: The statuses of a submission that still has work ahead (cancel stops them).
ACTIVE_STATUSES = (Submission.Status.GENERATING, Submission.Status.QUEUED, Submission.Status.RUNNING)
#: Submissions in these statuses do not count against the daily quota (submissions.quota).
UNCOUNTED_STATUSES = (Submission.Status.FAILED, Submission.Status.CANCELLED)


class SpentQuota(models.Model):
    """A daily-quota slot used by a submission that was deleted with its system (submissions.systems.system_delete):
    the slot stays used until 24 hours after the submission was made, as it would have (the eighth break-it pass of
    issue 13: deleting a system of private submissions gave the team its slots back, eight full evaluations in a row
    with "5 of 5 left"). `created_at` is the deleted submission's; `submission_pk` its old id, for the admins."""

    team = models.ForeignKey("catalog.Team", on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(db_index=True)
    submission_pk = models.PositiveIntegerField()

    def __str__(self) -> str:
        return f"slot of deleted submission #{self.submission_pk} of {self.team_id} at {self.created_at:%Y-%m-%d %H:%M}"


class AgentEndpoint(models.Model):
    """The URL of a system's agent, called by the platform with each task's README (protocol `agent/1`).

    The bearer secret is stored encrypted (Fernet, submissions.agents.crypto); only its last 4 characters
    are kept in clear, to show which secret is registered.
    """

    system = models.OneToOneField("catalog.System", on_delete=models.CASCADE, related_name="agent_endpoint")
    url = models.URLField(max_length=500)
    secret_encrypted = models.TextField(blank=True)
    secret_last4 = models.CharField(max_length=4, blank=True)
    updated_by = models.ForeignKey("auth.User", on_delete=models.SET_NULL, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.system} → {self.url}"

    @property
    def secret_hint(self) -> str:
        """'…abcd' (the last 4 characters of the secret), or '' when none is registered."""
        return f"…{self.secret_last4}" if self.secret_last4 else ""


class GenerationCall(models.Model):
    """The platform's calls to an agent endpoint for one task of an endpoint submission.

    `calls` logs every HTTP exchange: [{"kind": post|poll|redirect, "url", "status", "seconds", "error"}]
    (URLs without query strings; never a header). `reason` says why the generation failed (the task is
    then scored `missing`).
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        RUNNING = "running", "Calling the agent"
        SUCCEEDED = "succeeded", "Generated"
        FAILED = "failed", "Failed"

    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="generation_calls")
    task = models.ForeignKey("catalog.Task", on_delete=models.PROTECT, related_name="generation_calls")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    http_status = models.PositiveSmallIntegerField(null=True, blank=True, help_text="status of the final answer")
    duration = models.FloatField(null=True, blank=True, help_text="seconds from the first request to the answer")
    attempts = models.PositiveSmallIntegerField(default=0, help_text="POST attempts (retries included)")
    response_bytes = models.PositiveBigIntegerField(default=0)
    files = models.PositiveIntegerField(default=0, help_text="files in the generated repository")
    reason = models.CharField(max_length=500, blank=True)
    calls = models.JSONField(default=list, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["submission", "task"], name="generation_submission_task")]
        ordering = ["task__name"]

    def __str__(self) -> str:
        return f"{self.task} of submission {self.submission_id}: {self.status}"


class TeamWebhook(models.Model):
    """A team's webhook: the platform POSTs a JSON event to `url` when one of the team's submissions finishes or
    fails (submissions.webhooks), signed with HMAC-SHA256 under the team's secret (header X-RG-Signature). The URL
    passes the agent endpoints' SSRF guard at registration and at every delivery; redirects are never followed.
    The secret is stored encrypted (Fernet, submissions.agents.crypto); only its last 4 characters stay readable."""

    team = models.OneToOneField("catalog.Team", on_delete=models.CASCADE, related_name="webhook")
    url = models.URLField(max_length=500)
    secret_encrypted = models.TextField()
    secret_last4 = models.CharField(max_length=4, blank=True)
    is_active = models.BooleanField(default=True)
    updated_by = models.ForeignKey("auth.User", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"webhook of {self.team} → {self.url}"

    @property
    def secret_hint(self) -> str:
        """'…abcd' (the last 4 characters of the secret)."""
        return f"…{self.secret_last4}" if self.secret_last4 else ""


class WebhookDelivery(models.Model):
    """One event sent (or being sent) to a team's webhook, with every attempt: the delivery log the team sees.

    `attempts_log`: [{"at": ISO 8601, "status": HTTP status or null, "seconds", "error"}]. `status` is `pending`
    while attempts remain, then `delivered` (a 2xx answer) or `failed` (WEBHOOK_MAX_ATTEMPTS used, or a refusal no
    retry can change: the URL no longer passes the guard)."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        DELIVERED = "delivered", "Delivered"
        FAILED = "failed", "Failed"

    team = models.ForeignKey("catalog.Team", on_delete=models.CASCADE, related_name="webhook_deliveries")
    submission = models.ForeignKey(Submission, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    event = models.CharField(max_length=64, help_text="submission.finished or submission.failed")
    url = models.URLField(max_length=500, help_text="the URL at the time of the event")
    payload = models.JSONField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    attempts_log = models.JSONField(default=list, blank=True)
    http_status = models.PositiveSmallIntegerField(null=True, blank=True, help_text="status of the last answer")
    error = models.CharField(max_length=500, blank=True, help_text="why the last attempt failed")
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "webhook deliveries"

    def __str__(self) -> str:
        return f"{self.event} to {self.team}: {self.status}"
