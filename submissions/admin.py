from django.contrib import admin

from .models import Submission


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ("pk", "system", "split", "status", "is_public", "created_at", "finished_at")
    list_filter = ("status", "is_public")
    readonly_fields = ("archive", "archive_sha256", "archive_bytes", "token")


@admin.action(description="Re-score on the current benchmark version (in the background)")
def rescore(modeladmin, request, queryset):
    from evaluation.services import submission_rescore

    for submission in queryset:
        submission_rescore(submission=submission)
    modeladmin.message_user(request, f"{queryset.count()} submission(s) queued for re-scoring.")


SubmissionAdmin.actions = [rescore]
