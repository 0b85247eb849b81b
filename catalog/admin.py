from django.contrib import admin, messages
from django.core.exceptions import ValidationError

from .models import Benchmark, ReportedResult, Split, System, Task, Team
from .services import reported_result_unverify, reported_result_verify


@admin.register(Benchmark)
class BenchmarkAdmin(admin.ModelAdmin):
    list_display = ("name", "version", "is_current", "imported_at")


@admin.register(Task)
class TaskAdmin(admin.ModelAdmin):
    list_display = ("name", "benchmark", "language", "port", "framework", "tests_total", "reference_status")
    list_filter = ("benchmark", "language", "reference_status")
    search_fields = ("name",)
    fields = ("benchmark", "name", "language", "port", "framework", "domain", "declared_endpoints", "tests_total",
              "reference_status", "reference_detail", "readme")
    readonly_fields = ("benchmark", "name", "tests_total", "reference_status", "reference_detail")


@admin.register(Split)
class SplitAdmin(admin.ModelAdmin):
    list_display = ("name", "benchmark", "visibility")


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ("name", "created_at")
    filter_horizontal = ("members",)


@admin.register(System)
class SystemAdmin(admin.ModelAdmin):
    list_display = ("name", "team", "type", "agent_framework", "base_model", "created_at")


@admin.register(ReportedResult)
class ReportedResultAdmin(admin.ModelAdmin):
    """Published results: read-only values (they come from the source file); actions verify or withdraw."""

    list_display = ("system", "base_model", "type", "benchmark_name", "split_name", "python_pass_at_1",
                    "java_pass_at_1", "consistent", "verified_at", "verified_by")
    list_filter = ("benchmark_name", "split_name", "consistent", ("verified_at", admin.EmptyFieldListFilter))
    search_fields = ("system", "base_model")
    actions = ("verify", "unverify")
    readonly_fields = [f.name for f in ReportedResult._meta.fields]

    def has_add_permission(self, request):
        return False

    @admin.action(description="Verify: rank the selected rows in their language tables")
    def verify(self, request, queryset):
        done = 0
        for result in queryset:
            try:
                reported_result_verify(result=result, user=request.user)
                done += 1
            except ValidationError as exc:
                self.message_user(request, exc.messages[0], messages.ERROR)
        self.message_user(request, f"{done} row(s) verified.")

    @admin.action(description="Withdraw verification (back to the unranked published rows)")
    def unverify(self, request, queryset):
        for result in queryset:
            reported_result_unverify(result=result)
        self.message_user(request, f"{queryset.count()} row(s) withdrawn.")
