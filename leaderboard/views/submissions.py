"""Submission pages: upload form, status page (polls the API), report and archive downloads."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from core.report import report_csv
from evaluation.selectors import known_outcome, queue_has_worker, run_latest, run_queue, submission_report
from leaderboard.charts import failure_breakdown_figure
from catalog.selectors import NotFound, ascii_id, split_get

from submissions.agents.selectors import generation_log, generation_progress
from leaderboard.api.submissions import submission_data
from leaderboard.forms import SubmissionForm
from submissions.models import Submission
from catalog.selectors import user_in_team
from submissions.selectors import submission_archive, submission_get, submission_reruns
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_POST

from evaluation.services import submission_cancel, submission_create
from submissions.services import SubmissionError, submission_withdraw, upload_size_check
from submissions.quota import QuotaStatus, quota_status


def _quotas(user) -> list[tuple[str, QuotaStatus]]:
    """(team name, its quota now) for each team of the user that owns a system."""
    return [(team.name, quota_status(team=team)) for team in user.teams.filter(systems__isnull=False)
            .distinct().order_by("name")]


def _default_split(request):
    """The split the form preselects: the one `?benchmark=&split=` names (as the API's fields do), else the site's
    default; None when there is none. An unknown name is said in a message and the default is used."""
    benchmark, split = request.GET.get("benchmark"), request.GET.get("split")
    if benchmark or split:
        try:
            return split_get(benchmark=benchmark, split=split)
        except NotFound as exc:
            reason = str(exc)
            messages.error(request, f"{reason[:1].upper()}{reason[1:]}: the form shows the site's default split "
                                    "instead.")
    try:
        return split_get()
    except NotFound:
        return None


@csrf_exempt  # checked by _submit, once the body's size is known to be within the limit
@login_required
def submit(request):
    """Upload an archive for one of the user's systems, scored on the benchmark and split chosen on the form (the
    splits that take uploads; preselected: `?benchmark=&split=`, else the site's default); errors are shown on the
    form, nothing is stored. An upload over the limit is refused from its Content-Length before any of its body is
    read: the CSRF check reads the form, so it runs after that (`_submit`)."""
    default = _default_split(request)
    if request.method == "POST":
        try:
            upload_size_check(content_length=request.META.get("CONTENT_LENGTH"))
        except SubmissionError as exc:  # the body is not read: show an empty form with the reason
            return render(request, "submissions/submit.html", {
                "form": SubmissionForm(user=request.user, default_split=default), "upload_error": str(exc),
                "quotas": _quotas(request.user), "target": default}, status=400)
    return _submit(request, default)


@csrf_protect
def _submit(request, default):
    """The upload form of `submit` (its CSRF check done by the decorator), `default` the preselected split."""
    form = SubmissionForm(request.POST or None, request.FILES or None, user=request.user, default_split=default)
    if not form.fields["system"].queryset.exists():
        messages.info(request, "Create a system first: submissions belong to a system.")
        return redirect("leaderboard:system_new")
    if request.method == "POST" and form.is_valid():
        try:
            split = form.cleaned_data["split"]
            submission = submission_create(system=form.cleaned_data["system"], split=split,
                                           upload=form.cleaned_data["archive"], user=request.user,
                                           note=form.cleaned_data["note"], is_public=form.cleaned_data["is_public"],
                                           allow_missing=form.cleaned_data["allow_missing"])
        except (SubmissionError, NotFound) as exc:
            form.add_error("archive", str(exc))
        else:
            return redirect("submissions:detail", pk=submission.pk)
    chosen = ascii_id(form.data.get("split")) if form.is_bound else None
    target = (form.fields["split"].queryset.filter(pk=chosen).first() if chosen is not None else None) or default
    return render(request, "submissions/submit.html", {"form": form, "quotas": _quotas(request.user),
                                                       "target": target}, status=400 if form.errors else 200)


def _visible_or_404(request, pk: int) -> Submission:
    submission = submission_get(pk=pk, user=request.user)
    if submission is None:
        raise Http404("no such submission")
    return submission


def detail(request, pk: int):
    """Status and, once finished, the per-task report of a submission."""
    submission = _visible_or_404(request, pk)
    run = run_latest(submission=submission)
    results = list(run.results.select_related("task").order_by("task__name")) if run else []
    missing = submission.missing_reasons or {}
    for result in results:  # a task the archive lacks is `missing` from the start, not pending
        result.known_outcome = known_outcome(result, missing)
        result.known_detail = result.detail or missing.get(result.task.name, "")
    # a task scored `missing` gets one line for all of them, not a card of endpoints all "no"
    absent = [r.task.name for r in results if r.status == "done" and r.outcome == "missing"]
    public_split = submission.split.visibility == "public"
    figure = failure_breakdown_figure(rows=[("all tasks", run.scores.overall["outcomes"])],
                                      title="Failure breakdown") if run and run.scores else None
    # "No worker": waiting over a minute and no worker of the run's queue seen alive (a busy worker is not missing)
    stalled = bool(run and run.status == "queued" and (timezone.now() - run.created_at).total_seconds() > 60
                   and not queue_has_worker(background=run.background))
    stalled = stalled or (submission.status == Submission.Status.GENERATING and submission.generation_heartbeat is None
                          and (timezone.now() - submission.created_at).total_seconds() > 60
                          and not queue_has_worker())
    member = user_in_team(user=request.user, team=submission.system.team)
    endpoint = submission.source == Submission.Source.ENDPOINT
    return render(request, "submissions/detail.html", {
        "submission": submission, "run": run, "results": results, "absent": absent, "figure": figure,
        "stalled": stalled, "reruns": submission_reruns(submission=submission, user=request.user),
        "queue": run_queue(run=run) if run else None,
        "show_cases": public_split, "show_logs": member, "is_member": member,
        "generation": generation_log(submission=submission, with_calls=member) if endpoint else None,
        "generation_progress": generation_progress(submission=submission) if endpoint else None,
    })


def archive_download(request, pk: int):
    """The submission's archive (uploaded or generated), for its team only."""
    submission = _visible_or_404(request, pk)
    try:
        handle, filename = submission_archive(submission=submission, user=request.user)
    except PermissionError as exc:
        raise PermissionDenied(str(exc)) from exc
    except FileNotFoundError as exc:
        raise Http404(str(exc)) from exc
    return FileResponse(handle, as_attachment=True, filename=filename)


def status_json(request, pk: int):
    """Polling endpoint of the status page (same data as the API)."""
    submission = _visible_or_404(request, pk)
    return JsonResponse(submission_data(submission, member=user_in_team(user=request.user, team=submission.system.team)))


def _report_or_404(request, pk: int) -> dict:
    try:
        return submission_report(submission=_visible_or_404(request, pk))
    except ValueError as exc:
        raise Http404(str(exc)) from exc


def report_json(request, pk: int):
    response = JsonResponse(_report_or_404(request, pk), json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="submission-{pk}-report.json"'
    return response


def report_csv_view(request, pk: int):
    response = HttpResponse(report_csv(_report_or_404(request, pk)), content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="submission-{pk}-report.csv"'
    return response


@require_POST
@login_required
def cancel(request, pk: int):
    """The status page's Cancel button: stop a generating, queued or running submission of the user's team."""
    submission = _visible_or_404(request, pk)
    try:
        submission_cancel(submission=submission, user=request.user)
    except PermissionError as exc:
        raise PermissionDenied(str(exc)) from exc
    except SubmissionError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Submission #{pk} was cancelled; it does not count against your team's quota.")
    return redirect("submissions:detail", pk=pk)


@require_POST
@login_required
def withdraw(request, pk: int):
    """The status page's Withdraw form: take a finished public submission off the board, with a reason."""
    submission = _visible_or_404(request, pk)
    try:
        submission_withdraw(submission=submission, user=request.user, reason=request.POST.get("reason", ""))
    except PermissionError as exc:
        raise PermissionDenied(str(exc)) from exc
    except SubmissionError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Submission #{pk} was withdrawn from the public board; it stays here for your "
                                  "team and the admins.")
    return redirect("submissions:detail", pk=pk)
