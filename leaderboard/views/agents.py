"""System-page actions for agent endpoints (POST only, team members only): save or remove the endpoint,
start a run on a split. Each parses the form, calls one service, and redirects with a message."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from catalog.models import System

from submissions.services import SubmissionError
from leaderboard.forms import EndpointForm, RunForm
from catalog.selectors import user_in_team
from submissions.agents.selectors import splits_for_runs
from evaluation.services import generation_start
from submissions.agents.services import endpoint_delete, endpoint_register


def _own_system(request, pk: int) -> System:
    system = get_object_or_404(System.objects.select_related("team"), pk=pk)
    if not user_in_team(user=request.user, team=system.team):
        raise PermissionDenied("only the system's team can do this")
    return system


@login_required
@require_POST
def endpoint_save(request, pk: int):
    """Register or update the system's endpoint; errors come back as a message on the system page."""
    system = _own_system(request, pk)
    form = EndpointForm(request.POST)
    if not form.is_valid():
        messages.error(request, "; ".join(e for errors in form.errors.values() for e in errors))
    else:
        try:
            endpoint = endpoint_register(system=system, url=form.cleaned_data["url"],
                                         secret=form.cleaned_data["secret"], user=request.user)
        except SubmissionError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, f"Agent endpoint saved: {endpoint.url} (secret {endpoint.secret_hint}).")
    return redirect("leaderboard:system", pk=system.pk)


@login_required
@require_POST
def endpoint_remove(request, pk: int):
    system = _own_system(request, pk)
    if endpoint_delete(system=system):
        messages.success(request, "Agent endpoint removed.")
    return redirect("leaderboard:system", pk=system.pk)


@login_required
@require_POST
def run_start(request, pk: int):
    """Start an endpoint run on the chosen split and go to its submission page."""
    system = _own_system(request, pk)
    form = RunForm(request.POST, splits=splits_for_runs(user=request.user))
    if not form.is_valid():
        messages.error(request, "Choose a split to run on.")
        return redirect("leaderboard:system", pk=system.pk)
    try:
        submission = generation_start(system=system, split=form.cleaned_data["split"], user=request.user,
                                      note=form.cleaned_data["note"], is_public=form.cleaned_data["is_public"])
    except SubmissionError as exc:
        messages.error(request, str(exc))
        return redirect("leaderboard:system", pk=system.pk)
    messages.success(request, "Run started: the platform is calling your agent for every task.")
    return redirect("submissions:detail", pk=submission.pk)
