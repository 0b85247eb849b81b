"""Reads for agent endpoints and generation logs. The secret never leaves these functions (only its hint)."""
from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet

from catalog.models import Split, System
from catalog.selectors import user_in_team

from ..models import AgentEndpoint, GenerationCall, Submission


def endpoint_get(*, system: System) -> AgentEndpoint | None:
    """The system's endpoint, or None."""
    return AgentEndpoint.objects.filter(system=system).first()


def endpoint_data(endpoint: AgentEndpoint) -> dict[str, Any]:
    """{"system", "url", "secret_hint": "…abcd", "updated_at"} (the secret itself is never returned)."""
    return {"system": endpoint.system.name, "url": endpoint.url, "secret_hint": endpoint.secret_hint,
            "updated_at": endpoint.updated_at.isoformat()}



def splits_for_runs(*, user: User | AnonymousUser) -> QuerySet[Split]:
    """Splits of current benchmarks an endpoint run may target: public and endpoint-only (and hidden for admins)."""
    visible = [Split.Visibility.PUBLIC, Split.Visibility.ENDPOINT_ONLY]
    if getattr(user, "is_staff", False):
        visible.append(Split.Visibility.HIDDEN)
    return (Split.objects.filter(benchmark__is_current=True, visibility__in=visible)
            .select_related("benchmark").order_by("benchmark__name", "name"))


def generation_log(*, submission: Submission, with_calls: bool = False) -> list[dict[str, Any]]:
    """Per task: {"task", "language", "status", "http_status", "duration" (s), "attempts", "files",
    "response_bytes", "reason"}, plus "calls": [{"kind", "url", "status", "seconds", "error"}] with
    `with_calls` (for the team only: the URLs name its endpoint). [] for uploads."""
    rows = []
    for c in GenerationCall.objects.filter(submission=submission).select_related("task").order_by("task__name"):
        row = {"task": c.task.name, "language": c.task.language, "status": c.status, "http_status": c.http_status,
               "duration": c.duration, "attempts": c.attempts, "files": c.files,
               "response_bytes": c.response_bytes, "reason": c.reason}
        if with_calls:
            row["calls"] = c.calls
        rows.append(row)
    return rows


def generation_progress(*, submission: Submission) -> dict[str, Any]:
    """{"done": n, "total": n} over the submission's generation calls."""
    calls = list(GenerationCall.objects.filter(submission=submission).values_list("status", flat=True))
    done = sum(1 for s in calls if s in (GenerationCall.Status.SUCCEEDED, GenerationCall.Status.FAILED))
    return {"done": done, "total": len(calls)}


def system_agent_panel(*, system: System, user: User | AnonymousUser) -> dict[str, Any] | None:
    """What the system page shows its team about the endpoint: {"endpoint", "splits", "generating"}; None
    for anyone else."""
    if not user_in_team(user=user, team=system.team):
        return None
    return {"endpoint": endpoint_get(system=system), "splits": list(splits_for_runs(user=user)),
            "generating": Submission.objects.filter(system=system, status=Submission.Status.GENERATING).first()}
