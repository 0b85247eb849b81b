"""Submission API views: upload (multipart), status with per-task progress (and generation log for endpoint
submissions), reports as JSON and CSV, the archive for its team. Domain errors are raised, never caught here:
leaderboard.api.errors maps them (a used quota is 429, a refused archive 400)."""
from django.core.exceptions import ValidationError
from django.http import FileResponse, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from core.report import report_csv
from evaluation.models import RunStatus, TaskResult
from evaluation.selectors import run_latest, run_progress, run_queue, submission_report
from catalog.models import Language, Split
from catalog.selectors import NotFound as SplitNotFound
from catalog.selectors import split_get

from leaderboard.api.board import (EvaluatorOutputSerializer, MetricsOutputSerializer, PayloadSerializer,
                                   bad_request_response, error_response)
from leaderboard.api.pagination import ApiPagination, paginated_response
from submissions.agents.selectors import generation_log, generation_progress
from submissions.models import GenerationCall, Submission
from catalog.selectors import system_by_ref, user_in_team
from submissions.selectors import submission_archive, submission_get, submissions_visible
from evaluation.services import submission_cancel, submission_create
from submissions.services import submission_withdraw, upload_size_check, withdraw_permission_check
from submissions.quota import quota_status


class SubmissionCreateInputSerializer(serializers.Serializer):
    """POST /api/v1/submissions/ (multipart form)."""

    system = serializers.CharField(help_text="system id or name (owned by your team)")
    archive = serializers.FileField(help_text=".zip or .tar.gz with one folder per task")
    benchmark = serializers.CharField(required=False, help_text="benchmark name (default: the site's)")
    split = serializers.CharField(required=False, help_text="split name (default: verified)")
    note = serializers.CharField(required=False, allow_blank=True, max_length=300)
    is_public = serializers.BooleanField(required=False, default=True)
    allow_missing = serializers.BooleanField(
        required=False, default=False,
        help_text="queue the archive even if it lacks tasks of the split (they score 0); false (the default, as the "
                  "upload form): an archive lacking tasks is refused with the list of them and nothing is queued")


def split_from_body(data: dict) -> Split:
    """The split a request body names by `benchmark` and `split` (defaults: the site's benchmark, `verified`).
    An unknown one is a bad field of the body, not a missing resource: raises django ValidationError (answered
    400 {"detail": message}), where the read APIs' query parameters give 404."""
    try:
        return split_get(benchmark=data.get("benchmark"), split=data.get("split"))
    except SplitNotFound as exc:
        raise ValidationError(str(exc)) from exc



# --- output ----------------------------------------------------------------------------------------------------
class ProgressTaskOutputSerializer(PayloadSerializer):
    """One task of a run while it is evaluated."""

    task = serializers.CharField()
    language = serializers.ChoiceField(choices=Language.choices)
    status = serializers.ChoiceField(choices=TaskResult.Status.choices)
    phase = serializers.CharField(help_text="the engine's phase while running, `retry`, `done`; blank while pending")
    outcome = serializers.CharField(help_text='the outcome of docs/scoring.md "Failure taxonomy"; blank until done, '
                                              'but `missing` from the start for a task the archive has no folder for')
    tests_passed = serializers.IntegerField()
    tests_total = serializers.IntegerField()
    dsr = serializers.IntegerField(allow_null=True, help_text="0 or 1; null until done")
    ac = serializers.FloatField(allow_null=True,
                                help_text="fraction; null until done or without declared endpoints")
    ac_implemented = serializers.IntegerField()
    ac_declared = serializers.IntegerField()
    pass_at_1 = serializers.FloatField(allow_null=True, help_text="fraction; null until done")
    durations = serializers.DictField(child=serializers.FloatField(allow_null=True),
                                      help_text="seconds of the install, start and test phases (null: not run)")


class RunProgressOutputSerializer(PayloadSerializer):
    """evaluation.selectors.run_progress: tasks done out of total, each task's state."""

    done = serializers.IntegerField()
    total = serializers.IntegerField()
    tasks = ProgressTaskOutputSerializer(many=True)


class RunSummaryOutputSerializer(PayloadSerializer):
    """A finished run's aggregates (core.report.RunSummary): M overall and per language."""

    overall = MetricsOutputSerializer()
    by_language = serializers.DictField(child=MetricsOutputSerializer(), help_text="M per language")
    excluded = serializers.ListField(child=serializers.CharField(), required=False,
                                     help_text="tasks with N = 0, left out of every mean (absent on old runs)")


class RunOutputSerializer(PayloadSerializer):
    """The submission's latest evaluation run; `progress` on the detail and create answers only."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=RunStatus.choices)
    phase = serializers.CharField(help_text="queued, extract, tasks or finished")
    attempts = serializers.IntegerField()
    heartbeat = serializers.DateTimeField(allow_null=True)
    evaluator = EvaluatorOutputSerializer()
    summary = RunSummaryOutputSerializer(allow_null=True, help_text="null until the run finished")
    progress = RunProgressOutputSerializer(required=False)


class GenerationCallLogOutputSerializer(PayloadSerializer):
    """One HTTP exchange with the agent endpoint (submissions.agents.client.CallRecord)."""

    kind = serializers.CharField(help_text="post, poll or redirect")
    url = serializers.CharField(help_text="without its query")
    status = serializers.IntegerField(allow_null=True, help_text="HTTP status; null when no answer came")
    seconds = serializers.FloatField()
    error = serializers.CharField()


class GenerationTaskOutputSerializer(PayloadSerializer):
    """One task's generation by the agent endpoint; `calls` only for the submission's team (the URLs name its
    endpoint)."""

    task = serializers.CharField()
    language = serializers.ChoiceField(choices=Language.choices)
    status = serializers.ChoiceField(choices=GenerationCall.Status.choices)
    http_status = serializers.IntegerField(allow_null=True, help_text="status of the final answer")
    duration = serializers.FloatField(allow_null=True, help_text="seconds from the first request to the answer")
    attempts = serializers.IntegerField(help_text="POST attempts, retries included")
    files = serializers.IntegerField(help_text="files in the generated repository")
    response_bytes = serializers.IntegerField()
    reason = serializers.CharField()
    calls = GenerationCallLogOutputSerializer(many=True, required=False)


class GenerationOutputSerializer(PayloadSerializer):
    """The generation log of an endpoint submission: tasks generated (succeeded or failed) out of total."""

    done = serializers.IntegerField()
    total = serializers.IntegerField()
    tasks = GenerationTaskOutputSerializer(many=True)


class QueueOutputSerializer(PayloadSerializer):
    """Where a queued submission stands (evaluation.selectors.run_queue)."""

    position = serializers.IntegerField(help_text="1 + the submissions ahead of it")
    ahead = serializers.IntegerField(help_text="queued or running submissions of its queue created before it")
    tasks_ahead = serializers.IntegerField(help_text="their tasks still to evaluate (not done, not missing from "
                                                     "their archive)")
    mean_task_seconds = serializers.FloatField(allow_null=True, help_text="mean seconds of one task over the "
                                                                          "latest 50 evaluated; null without any")
    slots = serializers.IntegerField(help_text="tasks evaluated at once (EVALUATION_TASK_CONCURRENCY)")
    background = serializers.BooleanField(help_text="a platform run (a seed, a re-score) in the background queue: "
                                                    "only runs of that queue count ahead, and there is no estimate")
    estimated_start = serializers.DateTimeField(allow_null=True, help_text="now + ceil(tasks_ahead / slots) × "
                                                                           "mean; null without history")


class QuotaOutputSerializer(PayloadSerializer):
    """A team's daily quota (submissions.quota.QuotaStatus): failed and cancelled submissions do not count."""

    team = serializers.CharField(required=False)
    limit = serializers.IntegerField(help_text="submissions per rolling 24 hours")
    used = serializers.IntegerField()
    remaining = serializers.IntegerField()
    next_at = serializers.DateTimeField(allow_null=True, help_text="when the oldest counted submission leaves the "
                                                                   "24-hour window (a slot comes back)")
    text = serializers.CharField(required=False, help_text='"N of M submissions left today", with ", next one '
                                                           'tomorrow (YYYY-MM-DD) at HH:MM UTC" (or today) when '
                                                           'none is left')


class QuotaListOutputSerializer(PayloadSerializer):
    """GET /api/v1/quota/: one entry per team of the caller."""

    teams = QuotaOutputSerializer(many=True)


class QuotaErrorOutputSerializer(PayloadSerializer):
    """The body of a 429 for a used quota: the message ("... 0 of M submissions left today, next one tomorrow
    (YYYY-MM-DD) at HH:MM UTC") and the team's quota."""

    detail = serializers.CharField()
    quota = QuotaOutputSerializer()


#: A used daily quota (POST /api/v1/submissions/, POST /api/v1/systems/{ref}/runs/).
QUOTA_429 = OpenApiResponse(QuotaErrorOutputSerializer, description="your team used its submissions of the last 24 "
                            "hours; `quota.next_at` says when the next one is possible")


class SubmissionOutputSerializer(PayloadSerializer):
    """A submission (`submission_data`): its fields, its latest run (null before any) and, for endpoint
    submissions on the detail and create answers, its `generation` log."""

    id = serializers.IntegerField()
    system = serializers.CharField()
    team = serializers.CharField()
    benchmark = serializers.CharField()
    split = serializers.CharField()
    status = serializers.ChoiceField(choices=Submission.Status.choices)
    error = serializers.CharField(help_text="why the evaluation could not run (status failed)")
    warnings = serializers.ListField(child=serializers.CharField(), help_text="layout warnings of the archive")
    archive_name = serializers.CharField()
    archive_bytes = serializers.IntegerField()
    archive_sha256 = serializers.CharField()
    note = serializers.CharField(help_text="the team's note on the submission (at most 300 characters)")
    is_public = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    source = serializers.ChoiceField(choices=Submission.Source.choices)
    withdrawn_at = serializers.DateTimeField(allow_null=True, help_text="when it was withdrawn from the public "
                                                                      "board (then it is private); null if never")
    withdrawn_reason = serializers.CharField(required=False, help_text="why (the submission's team only)")
    run = RunOutputSerializer(allow_null=True)
    queue = QueueOutputSerializer(allow_null=True, help_text="position and estimated start while queued; else null")
    generation = GenerationOutputSerializer(required=False)


def submission_data(submission: Submission, *, with_progress: bool = True, member: bool = False) -> dict:
    """JSON of a submission: fields, latest run status/phase, per-task progress, summary when finished; for
    endpoint submissions also `generation` = {"done", "total", "tasks": [generation log entries]}, with each
    task's HTTP calls when `member` (the caller belongs to the submission's team). The shape of
    SubmissionOutputSerializer (also served by the status page's JSON)."""
    run = run_latest(submission=submission)
    data = {
        "id": submission.pk, "system": submission.system.name, "team": submission.system.team.name,
        "benchmark": submission.split.benchmark.name, "split": submission.split.name,
        "status": submission.status, "error": submission.error, "warnings": submission.layout_warnings,
        "archive_name": submission.archive_name, "archive_bytes": submission.archive_bytes,
        "archive_sha256": submission.archive_sha256, "note": submission.note, "is_public": submission.is_public,
        "created_at": submission.created_at.isoformat(),
        "finished_at": submission.finished_at.isoformat() if submission.finished_at else None,
        "source": submission.source, "run": None, "queue": None,
        "withdrawn_at": submission.withdrawn_at.isoformat() if submission.withdrawn_at else None,
    }
    if member and submission.withdrawn_at:
        data["withdrawn_reason"] = submission.withdrawn_reason
    if submission.source == Submission.Source.ENDPOINT and with_progress:
        data["generation"] = {**generation_progress(submission=submission),
                              "tasks": generation_log(submission=submission, with_calls=member)}
    if run:
        data["run"] = {"id": run.pk, "status": run.status, "phase": run.phase, "attempts": run.attempts,
                       "heartbeat": run.heartbeat.isoformat() if run.heartbeat else None,
                       "evaluator": {"version": run.evaluator_version, "backend": run.backend,
                                     "isolation": run.isolation},
                       "summary": run.summary}
        if with_progress:
            data["run"]["progress"] = run_progress(run=run)
            data["queue"] = run_queue(run=run)
    return data


def _visible(request, pk: int) -> Submission:
    submission = submission_get(pk=pk, user=request.user)
    if submission is None:
        raise NotFound(f"no submission {pk} that you can see")
    return submission


class SubmissionListCreateApi(APIView):
    """/api/v1/submissions/: GET the submissions you can see, POST (multipart) upload an archive."""

    parser_classes = [MultiPartParser, FormParser]

    pagination_class = ApiPagination

    @extend_schema(operation_id="submissions_list", tags=["submissions"],
                   responses={200: SubmissionOutputSerializer(many=True), 404: error_response("a page past the end")})
    def get(self, request):
        """The submissions you can see (public ones and your team's), newest first, one page at a time
        (leaderboard.api.pagination): {"count", "next", "previous", "results": [submission]}; without per-task
        progress or generation log (see GET /api/v1/submissions/{id}/)."""
        visible = submissions_visible(user=request.user).order_by("-created_at", "-pk")
        return paginated_response(self, request, visible, lambda page: SubmissionOutputSerializer(
            [submission_data(s, with_progress=False) for s in page], many=True).data)

    @extend_schema(operation_id="submissions_create", tags=["submissions"],
                   request={"multipart/form-data": SubmissionCreateInputSerializer},
                   responses={201: SubmissionOutputSerializer,
                              400: bad_request_response("the archive was refused (too big, not an archive, a link, "
                                                        "a path escaping its folder, a name over 255 bytes or "
                                                        "a path over 3072, no "
                                                        "task folder, byte-identical to another team's archive on "
                                                        "the split, ...) or the "
                                                        "split is unknown or takes no upload; nothing was stored"),
                              403: error_response("not signed in, or the system is not your team's"),
                              429: QUOTA_429})
    def post(self, request):
        """Upload an archive (.zip or .tar.gz, one folder per task) for a system of your team; the submission
        is queued for evaluation. 400 for a refused archive (one lacking tasks of the split too, unless
        `allow_missing`) or an unknown split, 403 for a system that is not
        your team's, 429 when the team's daily quota is used."""
        upload_size_check(content_length=request.META.get("CONTENT_LENGTH"))
        ser = SubmissionCreateInputSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        data = ser.validated_data
        ref = data["system"]
        system = system_by_ref(ref)
        if system is not None and not user_in_team(user=request.user, team=system.team):
            system = None
        if system is None:
            raise PermissionDenied(f"no system {ref!r} owned by your team: create it first (POST /api/v1/systems/)")
        submission = submission_create(system=system, split=split_from_body(data), upload=data["archive"],
                                       user=request.user, note=data.get("note", ""), is_public=data["is_public"],
                                       allow_missing=data["allow_missing"])
        return Response(SubmissionOutputSerializer(submission_data(submission)).data,
                        status=status.HTTP_201_CREATED)


class SubmissionDetailApi(APIView):
    """GET /api/v1/submissions/{id}/: the status of a submission (see `get`)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="submission_read", tags=["submissions"],
                   responses={200: SubmissionOutputSerializer,
                              404: error_response("no such submission that you can see")})
    def get(self, request, pk: int):
        """Status of a submission: generating (endpoint runs: the generation log) / queued / running (phase,
        per-task progress) / finished (summary) / failed (error). 404 for a submission you cannot see (private
        ones are their team's)."""
        submission = _visible(request, pk)
        data = submission_data(submission, member=user_in_team(user=request.user, team=submission.system.team))
        return Response(SubmissionOutputSerializer(data).data)


def _report(request, pk: int) -> dict:
    try:
        return submission_report(submission=_visible(request, pk))
    except ValueError as exc:
        raise NotFound(str(exc)) from exc


class SubmissionReportJsonApi(APIView):
    """GET /api/v1/submissions/{id}/report.json (see `get`)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="submission_report_json", tags=["submissions"],
                   responses={200: OpenApiResponse(
                       OpenApiTypes.OBJECT,
                       description='Free-form in this schema: the report of docs/scoring.md "Report schema" '
                                   "(`schema`: scoring/v1; benchmark, evaluator, submission, summary, tasks), "
                                   "served as an attachment."),
                              404: error_response("no such submission, or it has not finished")})
    def get(self, request, pk: int):
        """The per-task report (docs/scoring.md "Report schema") as a JSON download; documented there, so
        free-form here. 404 when the submission cannot be seen or has no finished evaluation."""
        response = Response(_report(request, pk))
        response["Content-Disposition"] = f'attachment; filename="submission-{pk}-report.json"'
        return response


class SubmissionReportCsvApi(APIView):
    """GET /api/v1/submissions/{id}/report.csv (see `get`)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="submission_report_csv", tags=["submissions"],
                   responses={(200, "text/csv"): OpenApiResponse(
                       OpenApiTypes.STR, description="CSV with a header row and one row per task (core.report."
                                                     "CSV_FIELDS), served as an attachment."),
                              404: error_response("no such submission, or it has not finished")})
    def get(self, request, pk: int):
        """The per-task report as a CSV download, one row per task. 404 like report.json."""
        response = HttpResponse(report_csv(_report(request, pk)), content_type="text/csv")
        response["Content-Disposition"] = f'attachment; filename="submission-{pk}-report.csv"'
        return response


class SubmissionArchiveApi(APIView):
    """GET /api/v1/submissions/{id}/archive (see `get`)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="submission_archive", tags=["submissions"],
                   responses={(200, "application/octet-stream"): OpenApiResponse(
                       OpenApiTypes.BINARY, description="the archive (.zip or .tar.gz) as an attachment"),
                              403: error_response("not signed in, or not the submission's team"),
                              404: error_response("no such submission, or no archive (not generated yet)")})
    def get(self, request, pk: int):
        """The submission's archive (uploaded, or generated from the agent endpoint's answers), for its team
        only. Re-score a run without calling the agent again by uploading this archive. 403 for anyone else,
        404 while an endpoint run has not generated it."""
        submission = _visible(request, pk)
        try:
            handle, filename = submission_archive(submission=submission, user=request.user)
        except PermissionError as exc:
            raise PermissionDenied(str(exc)) from exc
        except FileNotFoundError as exc:
            raise NotFound(str(exc)) from exc
        return FileResponse(handle, as_attachment=True, filename=filename)


def _member_answer(request, submission: Submission) -> Response:
    submission.refresh_from_db()
    data = submission_data(submission, member=user_in_team(user=request.user, team=submission.system.team))
    return Response(SubmissionOutputSerializer(data).data)


class SubmissionCancelApi(APIView):
    """POST /api/v1/submissions/{id}/cancel/ (see `post`)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="submission_cancel", tags=["submissions"], request=None,
                   responses={200: SubmissionOutputSerializer,
                              403: error_response("not signed in, or not the submission's team"),
                              404: error_response("no such submission that you can see"),
                              409: error_response("the submission has already finished, failed or been cancelled")})
    def post(self, request, pk: int):
        """Cancel a generating, queued or running submission of your team: its tasks stop within seconds (their
        sandboxes are torn down), its status becomes `cancelled` and it no longer counts against your team's
        daily quota. 409 when it has already ended."""
        submission = _visible(request, pk)
        submission_cancel(submission=submission, user=request.user)
        return _member_answer(request, submission)


class WithdrawInputSerializer(serializers.Serializer):
    """POST /api/v1/submissions/{id}/withdraw/."""

    reason = serializers.CharField(max_length=500, help_text="why it leaves the board (kept for the admins)")


class SubmissionWithdrawApi(APIView):
    """POST /api/v1/submissions/{id}/withdraw/ (see `post`)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="submission_withdraw", tags=["submissions"], request=WithdrawInputSerializer,
                   responses={200: SubmissionOutputSerializer,
                              400: bad_request_response("no reason, or one over 500 characters"),
                              403: error_response("not signed in, or not the submission's team"),
                              404: error_response("no such submission that you can see"),
                              409: error_response("not a finished public submission (or already withdrawn)")})
    def post(self, request, pk: int):
        """Withdraw a finished public submission of your team from the public board, saying why. It stays
        stored, private (your team and the admins see it), with who withdrew it, when and why; the board ranks
        the system by its previous public run, if any. 409 when it is not finished, not public or already
        withdrawn."""
        submission = _visible(request, pk)
        withdraw_permission_check(submission=submission, user=request.user)  # 403 before the body's 400
        ser = WithdrawInputSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        submission_withdraw(submission=submission, user=request.user, reason=ser.validated_data["reason"])
        return _member_answer(request, submission)


class QuotaApi(APIView):
    """GET /api/v1/quota/ (see `get`)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="quota_read", tags=["submissions"],
                   responses={200: QuotaListOutputSerializer, 403: error_response("not signed in")})
    def get(self, request):
        """The daily quota of each of your teams (`teams`, by name): limit, used, remaining and when the next slot
        comes back (the same numbers a 429 carries in its `quota`)."""
        data = [{"team": team.name, **q.as_dict(), "text": q.sentence()}
                for team in request.user.teams.order_by("name") for q in [quota_status(team=team)]]
        return Response(QuotaListOutputSerializer({"teams": data}).data)
