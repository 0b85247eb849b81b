"""Research API views: compare two systems, the task x system matrix, board and results exports, citations, a
system's history.
Like leaderboard.api.board: parse the query, call one read, render through an output serializer (what
/api/v1/schema/ documents); domain errors go to leaderboard.api.errors (unknown benchmark, split or system: 404;
the same system twice: 400)."""
from __future__ import annotations

import datetime as dt

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog.selectors import split_get, system_by_ref
from leaderboard.api.board import (IntervalField, MetricsOutputSerializer, PayloadSerializer,
                                   SignificanceGroupOutputSerializer, SplitQuerySerializer,
                                   TaskDifficultyOutputSerializer, bad_request_response, error_response)
from leaderboard.board_cache import board_cached, board_cached_response
from leaderboard.compare import system_compare
from leaderboard.exports import board_csv, board_export, results_csv
from leaderboard.history import system_history
from leaderboard.research import MATRIX_ORDERS, leaderboard_bibtex, paper_bibtex, task_matrix
from leaderboard.selectors import LANGUAGE_VIEWS

LANGUAGE_ERRORS = {"invalid_choice": "unknown language '{input}': use one of " + ", ".join(LANGUAGE_VIEWS)}


def _split(query):
    return split_get(benchmark=query.validated_data.get("benchmark"), split=query.validated_data.get("split"))


# --- compare ---------------------------------------------------------------------------------------------------
class CompareSideOutputSerializer(PayloadSerializer):
    """One of the two systems compared: its ranked submission and the view's metrics (M)."""

    system = serializers.CharField()
    system_id = serializers.IntegerField()
    team = serializers.CharField()
    type = serializers.CharField()
    submission = serializers.IntegerField(help_text="id of the submission compared (the system's ranked one)")
    benchmark_version = serializers.CharField(help_text="the benchmark version the run was scored on")
    evaluator_version = serializers.CharField()
    outdated = serializers.BooleanField()
    metrics = MetricsOutputSerializer(allow_null=True, help_text="null when the run has no task of the view")


class CompareCellOutputSerializer(PayloadSerializer):
    """One system's result on one task (outcome null: no result, scored 0)."""

    outcome = serializers.CharField(allow_null=True)
    tests_passed = serializers.IntegerField()
    tests_total = serializers.IntegerField(allow_null=True)
    pass_at_1 = serializers.FloatField()
    dsr = serializers.IntegerField()
    solved = serializers.IntegerField()
    submission = serializers.IntegerField()


class CompareTaskOutputSerializer(PayloadSerializer):
    """Both systems on one task, side by side."""

    task = serializers.CharField()
    language = serializers.CharField()
    excluded = serializers.BooleanField(help_text="N = 0: listed, not paired")
    a = CompareCellOutputSerializer()
    b = CompareCellOutputSerializer()
    difference = serializers.FloatField(allow_null=True, help_text="Pass@1 of A minus B, in [-1, 1]")
    winner = serializers.ChoiceField(choices=["a", "b", "tie"], allow_null=True)


class PairedComparisonOutputSerializer(PayloadSerializer):
    """core.grading.metrics.PairedComparison: the paired difference of Pass@1 (docs/scoring.md "Comparing two
    systems")."""

    tasks = serializers.IntegerField(help_text="tasks paired")
    mean_a = serializers.FloatField()
    mean_b = serializers.FloatField()
    difference = serializers.FloatField(help_text="mean Pass@1 of A minus B")
    difference_ci = IntervalField(help_text="95% paired bootstrap interval of the difference, tasks resampled jointly")
    significant = serializers.BooleanField(help_text="the interval leaves out 0")
    wins = serializers.IntegerField(help_text="tasks where A scores higher")
    ties = serializers.IntegerField()
    losses = serializers.IntegerField(help_text="tasks where B scores higher")


class CompareOutputSerializer(PayloadSerializer):
    """GET /api/v1/compare/."""

    benchmark = serializers.CharField()
    version = serializers.CharField()
    split = serializers.CharField()
    language = serializers.CharField()
    a = CompareSideOutputSerializer()
    b = CompareSideOutputSerializer()
    comparison = PairedComparisonOutputSerializer(allow_null=True, help_text="null when no task is scored")
    tasks = CompareTaskOutputSerializer(many=True)
    largest_differences = serializers.ListField(child=serializers.CharField(),
                                                help_text="up to 5 tasks, largest |difference| first")


class CompareApi(APIView):
    """GET /api/v1/compare/?a=&b=: two systems task by task (see `get`)."""

    permission_classes = [permissions.AllowAny]

    class InputSerializer(SplitQuerySerializer):
        """?a=&b= (system ids or exact names) &language= &benchmark= &split=."""

        a = serializers.CharField(help_text="system A, by its id (digits) or its exact name")
        b = serializers.CharField(help_text="system B, by its id (digits) or its exact name")
        language = serializers.ChoiceField(choices=LANGUAGE_VIEWS, default="overall", error_messages=LANGUAGE_ERRORS)

    @extend_schema(operation_id="compare_read", tags=["leaderboard"], parameters=[InputSerializer],
                   responses={200: CompareOutputSerializer,
                              400: bad_request_response("a or b missing, the same system twice, unknown language"),
                              404: error_response("no such benchmark, split or system, or no run of it there")})
    def get(self, request):
        """Systems A and B (by id or name) on their ranked submissions: per task both P/N, outcome and DSR; the paired
        difference of Pass@1 with its 95% paired bootstrap interval (tasks resampled jointly, docs/scoring.md
        "Comparing two systems"); wins, ties and losses; the tasks where they differ most."""
        query = self.InputSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        data = system_compare(split=_split(query), a=query.validated_data["a"], b=query.validated_data["b"],
                              language=query.validated_data["language"])
        return Response(CompareOutputSerializer(data).data)


# --- the matrix ------------------------------------------------------------------------------------------------
class MatrixSystemOutputSerializer(PayloadSerializer):
    """A ranked system, a row of the matrix."""

    system = serializers.CharField()
    system_id = serializers.IntegerField()
    rank = serializers.IntegerField()
    submission = serializers.IntegerField()


class MatrixTaskOutputSerializer(PayloadSerializer):
    """A task, a column of the matrix, with its difficulty over the ranked systems."""

    task = serializers.CharField()
    language = serializers.CharField()
    difficulty = TaskDifficultyOutputSerializer()


class MatrixCellOutputSerializer(PayloadSerializer):
    """One system on one task; null values when the run has no result for it."""

    pass_at_1 = serializers.FloatField(allow_null=True)
    tests_passed = serializers.IntegerField(allow_null=True)
    tests_total = serializers.IntegerField(allow_null=True)
    outcome = serializers.CharField(allow_null=True)
    url = serializers.CharField(help_text="the page of this task's result")


class MatrixOutputSerializer(PayloadSerializer):
    """GET /api/v1/matrix/: `cells[i][j]` is system i on task j."""

    benchmark = serializers.CharField()
    version = serializers.CharField()
    split = serializers.CharField()
    language = serializers.CharField()
    order = serializers.CharField()
    excluded = serializers.ListField(child=serializers.CharField(), help_text="tasks with N = 0, left out")
    systems = MatrixSystemOutputSerializer(many=True)
    tasks = MatrixTaskOutputSerializer(many=True)
    cells = serializers.ListField(child=MatrixCellOutputSerializer(many=True))


class MatrixApi(APIView):
    """GET /api/v1/matrix/: per-task Pass@1 of every ranked system (see `get`)."""

    permission_classes = [permissions.AllowAny]

    class InputSerializer(SplitQuerySerializer):
        """?language=&order=&benchmark=&split=."""

        language = serializers.ChoiceField(choices=LANGUAGE_VIEWS, default="overall", error_messages=LANGUAGE_ERRORS)
        order = serializers.ChoiceField(choices=MATRIX_ORDERS, default="difficulty",
                                        help_text="difficulty: hardest first (lowest mean Pass@1); name")

    @extend_schema(operation_id="matrix_read", tags=["leaderboard"], parameters=[InputSerializer],
                   responses={200: MatrixOutputSerializer, 400: bad_request_response("an unknown language or order"),
                              404: error_response("no such benchmark or split")})
    def get(self, request):
        """The task x system matrix of one language view: ranked systems in rank order, tasks hardest first (or
        by name) with their difficulty, and per cell Pass@1, P, N, outcome and the URL of the result."""
        query = self.InputSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        data = task_matrix(split=_split(query), language=query.validated_data["language"],
                           order=query.validated_data["order"])
        return Response(MatrixOutputSerializer(data).data)


# --- exports ---------------------------------------------------------------------------------------------------
class ExportViewOutputSerializer(MetricsOutputSerializer):
    """A row's values in one view: M with its rank and tie marker there (null: not ranked, e.g. the oracle)."""

    rank = serializers.IntegerField(allow_null=True)
    tied_with_leader = serializers.BooleanField(allow_null=True)
    significance_group = SignificanceGroupOutputSerializer(
        allow_null=True, help_text="the ranked rows not significantly different from this one (null: not ranked)")


class ExportViewsOutputSerializer(PayloadSerializer):
    """The row's values per view; null for a view the run has no task of."""

    overall = ExportViewOutputSerializer(allow_null=True)
    python = ExportViewOutputSerializer(allow_null=True)
    java = ExportViewOutputSerializer(allow_null=True)


class ExportEvaluatorOutputSerializer(PayloadSerializer):
    """Who scored the row."""

    version = serializers.CharField()
    backend = serializers.CharField()
    isolation = serializers.CharField()


class ExportRowOutputSerializer(PayloadSerializer):
    """One system of the board (docs/exports.md "board.json")."""

    system = serializers.CharField()
    team = serializers.CharField()
    type = serializers.CharField()
    agent_framework = serializers.CharField()
    base_model = serializers.CharField()
    submission = serializers.IntegerField()
    submitted_at = serializers.DateTimeField()
    evaluated_at = serializers.DateTimeField(allow_null=True)
    benchmark_version = serializers.CharField(help_text="the version the run was scored on")
    evaluator = ExportEvaluatorOutputSerializer()
    outdated = serializers.BooleanField()
    ranked = serializers.BooleanField(help_text="false for the reference solutions (the oracle)")
    badges = serializers.ListField(child=serializers.CharField(),
                                   help_text="verified, agent-endpoint, open-source, oracle (leaderboard.badges)")
    source_url = serializers.CharField(help_text="the public repository of the system's code ('' if none given)")
    views = ExportViewsOutputSerializer()


class ExportBenchmarkOutputSerializer(PayloadSerializer):
    """The benchmark and split exported."""

    name = serializers.CharField()
    title = serializers.CharField()
    version = serializers.CharField()
    split = serializers.CharField()
    tasks = serializers.DictField(child=serializers.IntegerField(), help_text="tasks per view")
    excluded = serializers.DictField(child=serializers.ListField(child=serializers.CharField()),
                                     help_text="tasks with N = 0 per view")


class ExportEvaluatorsOutputSerializer(PayloadSerializer):
    """The evaluator of this site now and the versions the rows were scored by."""

    current = serializers.CharField()
    versions = serializers.ListField(child=serializers.CharField())


class BoardExportOutputSerializer(PayloadSerializer):
    """GET /api/v1/export/board.json (schema board-export/v2, docs/exports.md)."""

    schema = serializers.CharField()
    generated_at = serializers.DateTimeField()
    benchmark = ExportBenchmarkOutputSerializer()
    evaluator = ExportEvaluatorsOutputSerializer()
    rows = ExportRowOutputSerializer(many=True)


def _attachment(body: str, *, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _filename(split, name: str) -> str:
    return f"{split.benchmark.name}-{split.name}-{split.benchmark.version[:12]}-{name}"


class BoardExportJsonApi(APIView):
    """GET /api/v1/export/board.json (see `get`)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="export_board_json", tags=["leaderboard"], parameters=[SplitQuerySerializer],
                   responses={200: BoardExportOutputSerializer, 404: error_response("no such benchmark or split")})
    def get(self, request):
        """The whole board of a split: every system's row with its rank, tie marker, metrics and 95% intervals in
        each view (Overall, Python, Java), the benchmark and evaluator versions (docs/exports.md)."""
        query = SplitQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        split = _split(query)
        response = board_cached_response(request, ("export-board-json", split.pk),
                                         lambda: dict(BoardExportOutputSerializer(board_export(split=split)).data))
        response["Content-Disposition"] = f'inline; filename="{_filename(split, "board.json")}"'
        return response


CSV_RESPONSE = "CSV with a header row; columns and meaning in docs/exports.md; served as an attachment."


class BoardExportCsvApi(APIView):
    """GET /api/v1/export/board.csv (see `get`)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="export_board_csv", tags=["leaderboard"], parameters=[SplitQuerySerializer],
                   responses={(200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description=CSV_RESPONSE),
                              404: error_response("no such benchmark or split")})
    def get(self, request):
        """board.json as CSV, one line per system (leaderboard.exports.BOARD_CSV_FIELDS)."""
        query = SplitQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        split = _split(query)
        body = board_cached(("export-board-csv", split.pk), lambda: board_csv(board_export(split=split)))
        return _attachment(body, filename=_filename(split, "board.csv"),
                           content_type="text/csv; charset=utf-8")


class ResultsExportCsvApi(APIView):
    """GET /api/v1/export/results.csv (see `get`)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="export_results_csv", tags=["leaderboard"], parameters=[SplitQuerySerializer],
                   responses={(200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description=CSV_RESPONSE),
                              404: error_response("no such benchmark or split")})
    def get(self, request):
        """Every per-task result of the split's board as one CSV: one line per (system, task), each system's
        ranked submission (leaderboard.exports.RESULTS_CSV_FIELDS)."""
        query = SplitQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        split = _split(query)
        body = board_cached(("export-results-csv", split.pk), lambda: results_csv(split=split))
        return _attachment(body, filename=_filename(split, "results.csv"),
                           content_type="text/csv; charset=utf-8")


# --- cite ------------------------------------------------------------------------------------------------------
class CiteOutputSerializer(PayloadSerializer):
    """GET /api/v1/cite/: BibTeX entries."""

    benchmark = serializers.CharField()
    version = serializers.CharField()
    split = serializers.CharField()
    paper = serializers.CharField(allow_null=True, help_text="BibTeX of the benchmark's paper; null when the "
                                                             "manifest names none")
    leaderboard = serializers.CharField(help_text="BibTeX of this leaderboard, with the benchmark version")


class CiteApi(APIView):
    """GET /api/v1/cite/ (see `get`)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="cite_read", tags=["leaderboard"], parameters=[SplitQuerySerializer],
                   responses={200: CiteOutputSerializer, 404: error_response("no such benchmark or split")})
    def get(self, request):
        """BibTeX for the benchmark's paper (from its manifest) and for this leaderboard (its URL, the benchmark
        version, the evaluator and scoring versions, today's date)."""
        query = SplitQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        split = _split(query)
        data = {"benchmark": split.benchmark.name, "version": split.benchmark.version, "split": split.name,
                "paper": paper_bibtex(benchmark=split.benchmark),
                "leaderboard": leaderboard_bibtex(split=split, site_url=request.build_absolute_uri("/"),
                                                  accessed=dt.date.today())}
        return Response(CiteOutputSerializer(data).data)


# --- a system's history ----------------------------------------------------------------------------------------
class HistoryPointOutputSerializer(PayloadSerializer):
    """One finished public run of the system's submissions (Overall metrics as fractions; null without scores)."""

    submission = serializers.IntegerField()
    run = serializers.IntegerField()
    finished_at = serializers.DateTimeField()
    benchmark_version = serializers.CharField()
    pass_at_1 = serializers.FloatField(allow_null=True)
    pass_at_1_ci = IntervalField(allow_null=True)
    ac = serializers.FloatField(allow_null=True)
    dsr = serializers.FloatField(allow_null=True)
    note = serializers.CharField(allow_blank=True)
    ranked = serializers.BooleanField(help_text="the run the board ranks (or shows as the oracle)")
    why = serializers.CharField(help_text="one sentence: why this run is or is not the ranked one")


class HistorySplitOutputSerializer(PayloadSerializer):
    """The system's runs on one split (any benchmark version), oldest first."""

    benchmark = serializers.CharField()
    split = serializers.CharField()
    rank = serializers.IntegerField(allow_null=True, help_text="Overall rank of the ranked run; null for the oracle "
                                                               "or a run not on the current benchmark version")
    ranked = HistoryPointOutputSerializer()
    points = HistoryPointOutputSerializer(many=True)


class SystemHistoryOutputSerializer(PayloadSerializer):
    system = serializers.CharField()
    system_id = serializers.IntegerField()
    splits = HistorySplitOutputSerializer(many=True)


class SystemHistoryApi(APIView):
    """GET /api/v1/systems/{ref}/history/ (see `get`)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="system_history", tags=["systems"],
                   responses={200: SystemHistoryOutputSerializer, 404: error_response("no such system")})
    def get(self, request, ref: str):
        """The system (named or numbered `ref`) over time: per split, every finished public run of its submissions,
        oldest first, which one the board ranks and why (leaderboard.history.system_history; the system page draws
        the same points)."""
        system = system_by_ref(ref)
        if system is None:
            raise exceptions.NotFound(f"no system {ref!r}")
        data = {"system": system.name, "system_id": system.pk, "splits": system_history(system=system)}
        return Response(SystemHistoryOutputSerializer(data).data)
