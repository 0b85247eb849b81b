from django.contrib import admin

from .models import EvaluationRun, TaskResult


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
