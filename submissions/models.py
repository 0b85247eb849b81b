"""Submissions: one system's generated repositories for one split (SCORING.md "Terms")."""
from django.db import models


def _archive_path(instance: "Submission", filename: str) -> str:
    suffix = ".zip" if filename.lower().endswith(".zip") else ".tar.gz"
    return f"submissions/{instance.system_id}/{instance.token}{suffix}"


class Submission(models.Model):
    """An uploaded archive (one folder per task) waiting for, under, or done with evaluation.

    `status` follows the run: queued → running → finished (scored) or failed (the evaluation itself
    could not run, e.g. the archive could not be extracted).
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        FAILED = "failed", "Failed"

    system = models.ForeignKey("leaderboard.System", on_delete=models.CASCADE, related_name="submissions")
    split = models.ForeignKey("leaderboard.Split", on_delete=models.PROTECT, related_name="submissions")
    submitted_by = models.ForeignKey("auth.User", on_delete=models.SET_NULL, null=True, blank=True)
    token = models.CharField(max_length=32, unique=True)
    archive = models.FileField(upload_to=_archive_path, max_length=300)
    archive_name = models.CharField(max_length=255)
    archive_bytes = models.PositiveBigIntegerField(default=0)
    archive_sha256 = models.CharField(max_length=64)
    note = models.CharField(max_length=300, blank=True)
    is_public = models.BooleanField(default=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    error = models.TextField(blank=True, help_text="why the evaluation could not run (status failed)")
    layout_warnings = models.JSONField(default=list, help_text="unknown top-level folders and similar")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"#{self.pk} {self.system} on {self.split}"
