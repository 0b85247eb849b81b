"""Submission API views: upload (multipart), status with per-task progress (and generation log for endpoint
submissions), reports as JSON and CSV, the archive for its team."""
from django.http import FileResponse, HttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from core.report import report_csv
from evaluation.selectors import run_latest, run_progress, submission_report
from catalog.models import System
from catalog.selectors import NotFound as SplitNotFound
from catalog.selectors import split_get

from submissions.agents.selectors import generation_log, generation_progress
from submissions.models import Submission
from submissions.selectors import submission_archive, submission_get, submissions_visible, user_is_member
from evaluation.services import submission_create
from submissions.services import QuotaExceeded, SubmissionError, upload_size_check


class SubmissionCreateSerializer(serializers.Serializer):
    system = serializers.CharField(help_text="system id or name (owned by your team)")
    archive = serializers.FileField(help_text=".zip or .tar.gz with one folder per task")
    benchmark = serializers.CharField(required=False)
    split = serializers.CharField(required=False)
    note = serializers.CharField(required=False, allow_blank=True, max_length=300)
    is_public = serializers.BooleanField(required=False, default=True)


def submission_data(submission: Submission, *, with_progress: bool = True, member: bool = False) -> dict:
    """JSON of a submission: fields, latest run status/phase, per-task progress, summary when finished; for
    endpoint submissions also `generation` = {"done", "total", "tasks": [generation log entries]}, with each
    task's HTTP calls when `member` (the caller belongs to the submission's team)."""
    run = run_latest(submission=submission)
    data = {
        "id": submission.pk, "system": submission.system.name, "team": submission.system.team.name,
        "benchmark": submission.split.benchmark.name, "split": submission.split.name,
        "status": submission.status, "error": submission.error, "warnings": submission.layout_warnings,
        "archive_name": submission.archive_name, "archive_bytes": submission.archive_bytes,
        "archive_sha256": submission.archive_sha256, "is_public": submission.is_public,
        "created_at": submission.created_at.isoformat(),
        "finished_at": submission.finished_at.isoformat() if submission.finished_at else None,
        "source": submission.source, "run": None,
    }
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
    return data


def _visible(request, pk: int) -> Submission:
    submission = submission_get(pk=pk, user=request.user)
    if submission is None:
        raise NotFound(f"no submission {pk} that you can see")
    return submission


class SubmissionListCreateApi(APIView):
    """GET: submissions you can see. POST (multipart): upload an archive for a system of your team."""

    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(responses={200: dict})
    def get(self, request):
        return Response([submission_data(s, with_progress=False) for s in submissions_visible(user=request.user)[:200]])

    @extend_schema(request={"multipart/form-data": SubmissionCreateSerializer}, responses={201: dict, 400: dict})
    def post(self, request):
        try:
            upload_size_check(content_length=request.META.get("CONTENT_LENGTH"))
        except SubmissionError as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_400_BAD_REQUEST)
        ser = SubmissionCreateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        data = ser.validated_data
        ref = data["system"]
        system = System.objects.filter(team__members=request.user).filter(
            **({"pk": int(ref)} if ref.isdigit() else {"name": ref})).first()
        if system is None:
            raise PermissionDenied(f"no system {ref!r} owned by your team: create it first (POST /api/v1/systems/)")
        try:
            split = split_get(benchmark=data.get("benchmark"), split=data.get("split"))
            submission = submission_create(system=system, split=split, upload=data["archive"], user=request.user,
                                           note=data.get("note", ""), is_public=data["is_public"])
        except QuotaExceeded as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_429_TOO_MANY_REQUESTS)
        except (SubmissionError, SplitNotFound) as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_400_BAD_REQUEST)
        return Response(submission_data(submission), status=status.HTTP_201_CREATED)


class SubmissionDetailApi(APIView):
    """Status of a submission: queued / running (phase, per-task progress) / finished (summary) / failed."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: dict})
    def get(self, request, pk: int):
        submission = _visible(request, pk)
        return Response(submission_data(submission, member=user_is_member(submission=submission, user=request.user)))


def _report(request, pk: int) -> dict:
    try:
        return submission_report(submission=_visible(request, pk))
    except ValueError as exc:
        raise NotFound(str(exc)) from exc


class SubmissionReportJsonApi(APIView):
    """The per-task report (SCORING.md "Report schema") as JSON."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: dict})
    def get(self, request, pk: int):
        response = Response(_report(request, pk))
        response["Content-Disposition"] = f'attachment; filename="submission-{pk}-report.json"'
        return response


class SubmissionReportCsvApi(APIView):
    """The per-task report as CSV, one row per task."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={(200, "text/csv"): str})
    def get(self, request, pk: int):
        response = HttpResponse(report_csv(_report(request, pk)), content_type="text/csv")
        response["Content-Disposition"] = f'attachment; filename="submission-{pk}-report.csv"'
        return response


class SubmissionArchiveApi(APIView):
    """The submission's archive (uploaded, or generated from the agent endpoint's answers), for its team only.
    Re-score a run without calling the agent again by uploading this archive."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={(200, "application/octet-stream"): bytes})
    def get(self, request, pk: int):
        submission = _visible(request, pk)
        try:
            handle, filename = submission_archive(submission=submission, user=request.user)
        except PermissionError as exc:
            raise PermissionDenied(str(exc)) from exc
        except FileNotFoundError as exc:
            raise NotFound(str(exc)) from exc
        return FileResponse(handle, as_attachment=True, filename=filename)
