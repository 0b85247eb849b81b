from django.contrib import admin

from .models import Benchmark, Split, System, Task, Team


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
