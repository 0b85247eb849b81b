from django.contrib import admin

from .models import Submission


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ("pk", "system", "split", "status", "is_public", "created_at", "finished_at")
    list_filter = ("status", "is_public")
    readonly_fields = ("archive", "archive_sha256", "archive_bytes", "token")
