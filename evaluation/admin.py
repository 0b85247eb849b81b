"""Admin of runs and results, and of submissions (their one action, a rescore, is evaluation's)."""
from django.contrib import admin

from submissions.models import GenerationCall, Submission

from .models import EvaluationRun, TaskResult
from .services import submission_rescore


class TaskResultInline(admin.TabularInline):
    model = TaskResult
    fields = ("task", "status", "phase", "outcome", "tests_passed", "tests_total", "dsr", "ac", "attempts")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(EvaluationRun)
class EvaluationRunAdmin(admin.ModelAdmin):
    list_display = ("pk", "submission", "status", "phase", "isolation", "attempts", "heartbeat", "finished_at")
    list_filter = ("status", "isolation")
    inlines = [TaskResultInline]


class GenerationCallInline(admin.TabularInline):
    model = GenerationCall
    extra = 0
    can_delete = False
    fields = ("task", "status", "http_status", "duration", "attempts", "files", "reason")
    readonly_fields = fields


@admin.action(description="Re-score on the current benchmark version (in the background)")
def rescore(modeladmin, request, queryset):
    for submission in queryset:
        submission_rescore(submission=submission)
    modeladmin.message_user(request, f"{queryset.count()} submission(s) queued for re-scoring.")


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ("pk", "system", "split", "source", "status", "is_public", "created_at", "finished_at",
                    "withdrawn_at", "withdrawn_by")
    list_filter = ("status", "source", "is_public", ("withdrawn_at", admin.EmptyFieldListFilter))
    readonly_fields = ("archive", "archive_sha256", "archive_bytes", "token", "cancelled_by", "withdrawn_at",
                       "withdrawn_by", "withdrawn_reason")
    inlines = [GenerationCallInline]
    actions = [rescore]
