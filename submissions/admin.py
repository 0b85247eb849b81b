from django.contrib import admin

from .models import AgentEndpoint, GenerationCall, Submission


class GenerationCallInline(admin.TabularInline):
    model = GenerationCall
    extra = 0
    can_delete = False
    fields = ("task", "status", "http_status", "duration", "attempts", "files", "reason")
    readonly_fields = fields


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ("pk", "system", "split", "source", "status", "is_public", "created_at", "finished_at")
    list_filter = ("status", "source", "is_public")
    readonly_fields = ("archive", "archive_sha256", "archive_bytes", "token")
    inlines = [GenerationCallInline]


@admin.register(AgentEndpoint)
class AgentEndpointAdmin(admin.ModelAdmin):
    """The secret is never shown, only its last 4 characters; teams change it on their system page."""

    list_display = ("system", "url", "secret_hint", "updated_at")
    fields = ("system", "url", "secret_hint", "updated_by", "created_at", "updated_at")
    readonly_fields = ("secret_hint", "updated_by", "created_at", "updated_at")


@admin.action(description="Re-score on the current benchmark version (in the background)")
def rescore(modeladmin, request, queryset):
    from evaluation.services import submission_rescore

    for submission in queryset:
        submission_rescore(submission=submission)
    modeladmin.message_user(request, f"{queryset.count()} submission(s) queued for re-scoring.")


SubmissionAdmin.actions = [rescore]
