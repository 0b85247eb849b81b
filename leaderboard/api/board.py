"""Leaderboard, task catalog and system API views: parse input, call one selector or service, render through an
output serializer, which is also what /api/v1/schema/ documents. Domain errors are raised, never caught here:
leaderboard.api.errors maps them (an unknown benchmark or split is 404).

The output serializers the other API modules share live here too: `PayloadSerializer` (the base of every output
serializer over a selector's dict), `MetricsOutputSerializer` (the M of docs/scoring.md "Report schema") and
`ErrorOutputSerializer`."""
from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog.models import Language, ReportedResult, Split, System
from core.grading.metrics import MIN_LABELLED_SYSTEMS
from catalog.selectors import excluded_task_names, reported_as_dict, reported_results, split_get
from leaderboard.research import SORT_KEYS, board_filter, board_query
from leaderboard.selectors import LANGUAGE_VIEWS, leaderboard_rows, reference_rows, reported_apart_as_dicts, task_health
from catalog.selectors import system_by_ref
from catalog.services import system_create, system_type_problem, team_for_user
from submissions.systems import system_delete, system_has_ranked_submission, system_member_check, system_update
from leaderboard.api.pagination import ApiPagination, paginated_response
from leaderboard.badges import KEYS as BADGE_KEYS
from leaderboard.badges import badge_keys, row_badges
from leaderboard.board_cache import board_cached_response


# --- shared output pieces ------------------------------------------------------------------------------------
class PayloadSerializer(serializers.Serializer):
    """Output serializer over a dict a selector built (the HackSoft styleguide's OutputSerializer, on dicts): it
    renders the declared fields, typed, and nothing else. A field declared `required=False` is a key the dict may
    lack: it then stays absent from the output (DRF alone would render a nullable one as null). A required key the
    dict lacks is a programming error (KeyError)."""

    def to_representation(self, instance: Any) -> dict[str, Any]:
        data = super().to_representation(instance)
        if isinstance(instance, Mapping):
            for field in self._readable_fields:
                if not field.required and field.source_attrs and field.source_attrs[0] not in instance:
                    data.pop(field.field_name, None)
        return data


class IntervalField(serializers.ListField):
    """A 95% percentile bootstrap interval over tasks, [low, high], as fractions in [0, 1]."""

    child = serializers.FloatField()

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_length", 2)
        kwargs.setdefault("max_length", 2)
        kwargs.setdefault("help_text", "95% bootstrap interval [low, high]")
        super().__init__(**kwargs)


class ErrorOutputSerializer(serializers.Serializer):
    """What every refusal of leaderboard.api.errors and DRF says: {"detail": message}."""

    detail = serializers.CharField(help_text="what was wrong and, where it helps, what to do")


#: The body of a 400: {"detail": message} when one of our services refused the input, or DRF's {field: [messages]}
#: when a field is malformed.
BAD_REQUEST_SCHEMA = {"type": "object", "properties": {"detail": {"type": "string"}},
                      "additionalProperties": {"type": "array", "items": {"type": "string"}},
                      "description": '{"detail": message}, or {field: [messages]} for a malformed field'}


def bad_request_response(description: str) -> OpenApiResponse:
    """A 400 answer documented by `description` (its body: BAD_REQUEST_SCHEMA)."""
    return OpenApiResponse(BAD_REQUEST_SCHEMA, description=description)


def error_response(description: str) -> OpenApiResponse:
    """A 403, 404 or 429 answer documented by `description` (its body: {"detail": message})."""
    return OpenApiResponse(ErrorOutputSerializer, description=description)


class MetricsOutputSerializer(PayloadSerializer):
    """The M of docs/scoring.md "Report schema" (metrics.Aggregate.as_dict) for one language view of a finished
    run: macro means over `tasks` tasks as fractions in [0, 1], each with its 95% bootstrap interval
    (docs/scoring.md "Aggregates")."""

    tasks = serializers.IntegerField(help_text="tasks in the means (tasks with N = 0 are left out)")
    pass_at_1 = serializers.FloatField(help_text="mean Pass@1: hidden tests passed / N, per task")
    pass_at_1_ci = IntervalField()
    solved = serializers.FloatField(help_text="share of tasks with every hidden test passed")
    solved_ci = IntervalField()
    dsr = serializers.FloatField(help_text="Deployment Success Rate: share of tasks whose service came up")
    dsr_ci = IntervalField()
    ac = serializers.FloatField(allow_null=True, help_text="API Coverage over the tasks that declare endpoints; "
                                                           "null when none does")
    ac_ci = IntervalField(allow_null=True)
    outcomes = serializers.DictField(child=serializers.IntegerField(),
                                     help_text='tasks per outcome of docs/scoring.md "Failure taxonomy"')


class EvaluatorOutputSerializer(PayloadSerializer):
    """Who scored a run: evaluator version, sandbox backend and its isolation."""

    version = serializers.CharField()
    backend = serializers.CharField()
    isolation = serializers.CharField()


def badges_field() -> serializers.ListField:
    """A row's badges (leaderboard.badges.row_badges, the rule the board page shows them by): their keys, in the
    order of leaderboard.badges.KEYS."""
    return serializers.ListField(
        child=serializers.ChoiceField(choices=BADGE_KEYS),
        help_text="the row's badges as on the board page, in this order: oracle (the reference solutions), verified "
                  "(evaluated by this site) or reported (by the authors), agent-endpoint, open-source "
                  "(docs/scoring.md \"Badges\")")


# --- published results "reported by the authors" -------------------------------------------------------------
class PublishedValuesOutputSerializer(PayloadSerializer):
    """One language's published values in percent, exactly as written (strings); null when not reported."""

    pass_at_1 = serializers.CharField(allow_null=True)
    ac = serializers.CharField(allow_null=True)
    dsr = serializers.CharField(allow_null=True)


class PublishedLanguagesOutputSerializer(PayloadSerializer):
    """The published values of each language, in percent."""

    python = PublishedValuesOutputSerializer()
    java = PublishedValuesOutputSerializer()


class FindingOutputSerializer(PayloadSerializer):
    """One finding of the consistency check of a published row (catalog.reported_files.Finding)."""

    field = serializers.CharField(help_text="the value concerned, e.g. python_pass_at_1")
    kind = serializers.CharField(help_text="`denominator` (inconsistent with the stated counts) or `definition`")
    message = serializers.CharField()


class ReportedOutputSerializer(PayloadSerializer):
    """A published row "reported by the authors" (catalog.selectors.reported_as_dict): never evaluated by us."""

    system = serializers.CharField()
    base_model = serializers.CharField()
    type = serializers.ChoiceField(choices=ReportedResult.Type.choices)
    values_percent = PublishedLanguagesOutputSerializer()
    source = serializers.CharField()
    source_url = serializers.CharField(help_text="URL; blank when none")
    source_date = serializers.DateField()
    paper = serializers.CharField()
    paper_url = serializers.CharField(help_text="URL; blank when none")
    denominators = serializers.DictField(
        child=serializers.DictField(child=serializers.IntegerField()),
        help_text='counts the published ratios are over, per language: {"python": {"tasks": 22, "endpoints": 115}}')
    consistent = serializers.BooleanField(help_text="false when a value cannot come from the stated counts")
    findings = FindingOutputSerializer(many=True)
    verified = serializers.BooleanField(help_text="an admin verified the row (only verified rows can be ranked)")
    verified_at = serializers.DateTimeField(allow_null=True)


class ReportedResultOutputSerializer(ReportedOutputSerializer):
    """A published row with the benchmark and split the authors evaluated on (by name)."""

    benchmark = serializers.CharField()
    split = serializers.CharField()


class ReportedApartOutputSerializer(ReportedOutputSerializer):
    """A published row shown apart from a leaderboard view, with why it is not ranked there."""

    badges = badges_field()
    not_ranked_because = serializers.CharField(allow_null=True)


# --- the leaderboard -----------------------------------------------------------------------------------------
class SignificanceGroupOutputSerializer(PayloadSerializer):
    """A row's significance group (docs/scoring.md "Significance groups"): the rows of the view not significantly
    different from it by the paired bootstrap over tasks, itself included, in board order."""

    ranks = serializers.ListField(child=serializers.IntegerField(), help_text="their ranks")
    systems = serializers.ListField(child=serializers.CharField(), help_text="their names")
    submissions = serializers.ListField(child=serializers.IntegerField(), required=False,
                                        help_text="their submissions' ids, the keys of their rows (board.json only)")


class LeaderboardRowOutputSerializer(PayloadSerializer):
    """A ranked row (leaderboard.selectors.LeaderboardRow.as_dict): a system's latest finished public run
    (`origin` `evaluated`), or a published result an admin verified (`reported`: the fields of a reported row, no
    intervals, no Solved, `tied_with_leader` null). Fields only one origin has are optional."""

    rank = serializers.IntegerField()
    tied_with_leader = serializers.BooleanField(
        allow_null=True, help_text="not significantly different from the leader (paired test); null when reported")
    significance_group = SignificanceGroupOutputSerializer(
        allow_null=True, help_text="the rows not significantly different from this one; null when reported")
    origin = serializers.ChoiceField(choices=[("evaluated", "evaluated by us"),
                                              ("reported", "reported by the authors, verified by an admin")])
    system = serializers.CharField()
    base_model = serializers.CharField()
    type = serializers.ChoiceField(choices=System.Type.choices)
    # evaluated rows
    team = serializers.CharField(required=False)
    agent_framework = serializers.CharField(required=False)
    submission = serializers.IntegerField(required=False, help_text="id of the ranked submission")
    submitted_at = serializers.DateTimeField(required=False)
    evaluated_at = serializers.DateTimeField(required=False)
    evaluator = EvaluatorOutputSerializer(required=False)
    benchmark_version = serializers.CharField(required=False)
    outdated = serializers.BooleanField(required=False, help_text="scored on an older benchmark version or "
                                                                  "by an older evaluator")
    # the metrics (M; published values as fractions for reported rows)
    tasks = serializers.IntegerField(required=False)
    pass_at_1 = serializers.FloatField()
    pass_at_1_ci = IntervalField(allow_null=True)
    solved = serializers.FloatField(allow_null=True)
    solved_ci = IntervalField(allow_null=True)
    dsr = serializers.FloatField(allow_null=True)
    dsr_ci = IntervalField(allow_null=True)
    ac = serializers.FloatField(allow_null=True)
    ac_ci = IntervalField(allow_null=True)
    outcomes = serializers.DictField(child=serializers.IntegerField(), required=False)
    # every row
    badges = badges_field()
    source_url = serializers.CharField(
        help_text="URL, blank when none. Evaluated rows: the system's code repository (what the open-source badge "
                  "links to, as board.json's source_url); reported rows: the published result's source")
    # reported rows
    published = PublishedValuesOutputSerializer(required=False, help_text="this language's values as published")
    values_percent = PublishedLanguagesOutputSerializer(required=False)
    source = serializers.CharField(required=False)
    source_date = serializers.DateField(required=False)
    paper = serializers.CharField(required=False)
    paper_url = serializers.CharField(required=False)
    denominators = serializers.DictField(child=serializers.DictField(child=serializers.IntegerField()),
                                         required=False)
    consistent = serializers.BooleanField(required=False)
    findings = FindingOutputSerializer(many=True, required=False)
    verified = serializers.BooleanField(required=False)
    verified_at = serializers.DateTimeField(allow_null=True, required=False)


class OracleRowOutputSerializer(MetricsOutputSerializer):
    """The reference solutions' metrics on the view: an oracle, never ranked."""

    system = serializers.CharField()
    submission = serializers.IntegerField()
    badges = badges_field()
    source_url = serializers.CharField(help_text="the system's code repository; blank when none")


class LeaderboardOutputSerializer(PayloadSerializer):
    """GET /api/v1/leaderboard/."""

    benchmark = serializers.CharField()
    version = serializers.CharField(help_text="the benchmark version (sha256)")
    split = serializers.CharField()
    language = serializers.CharField(help_text="the view: python, java or overall")
    rows = LeaderboardRowOutputSerializer(many=True)
    oracle = OracleRowOutputSerializer(many=True)
    excluded_tasks = serializers.ListField(child=serializers.CharField(),
                                           help_text="tasks with N = 0, left out of every mean")
    reported = ReportedApartOutputSerializer(many=True, help_text="published rows of the split not ranked here")


class SplitQuerySerializer(serializers.Serializer):
    """?benchmark=&split= of the read APIs (defaults: the site's benchmark, its `verified` split)."""

    benchmark = serializers.CharField(required=False, allow_blank=True,
                                      help_text="benchmark name (default: the site's)")
    split = serializers.CharField(required=False, allow_blank=True, help_text="split name (default: verified)")


class LeaderboardApi(APIView):
    """GET /api/v1/leaderboard/: a split's ranked rows for one language view (see `get`). A cached JSON answer is
    served before this view, by leaderboard.page_cache.CachedBoardPageMiddleware."""

    permission_classes = [permissions.AllowAny]

    class InputSerializer(SplitQuerySerializer):
        """?benchmark=&split=&language= (an unknown language: 400 {"language": [message]})."""

        language = serializers.ChoiceField(
            choices=LANGUAGE_VIEWS, default="overall", help_text="the language view",
            error_messages={"invalid_choice": "unknown language '{input}': use one of " + ", ".join(LANGUAGE_VIEWS)})
        # sort and filter (leaderboard.research.board_query), as on the page's query string
        sort = serializers.ChoiceField(choices=SORT_KEYS, required=False, help_text="sort rows on this column")
        order = serializers.ChoiceField(choices=["asc", "desc"], required=False,
                                        help_text="default: desc for metrics and date, asc for rank and system")
        type = serializers.CharField(required=False, allow_blank=True, help_text="only systems of this type")
        framework = serializers.CharField(required=False, allow_blank=True, help_text="agent framework, exact")
        base_model = serializers.CharField(required=False, allow_blank=True, help_text="base model, exact")
        q = serializers.CharField(required=False, allow_blank=True, help_text="part of the system's name")
        open_source = serializers.ChoiceField(
            choices=["yes", "no"], required=False, help_text="systems with (yes) or without (no) a public source URL",
            error_messages={"invalid_choice": "unknown open_source '{input}': use yes or no"})
        since = serializers.DateField(required=False, help_text="submitted on or after (YYYY-MM-DD)")
        until = serializers.DateField(required=False, help_text="submitted on or before (YYYY-MM-DD)")

    @staticmethod
    def answer_key_parts(query) -> tuple:
        """The cache key parts of the answer to this query string (a QueryDict); read before the view too, by
        leaderboard.page_cache.CachedBoardPageMiddleware."""
        return ("api-leaderboard", sorted((k, tuple(v)) for k, v in query.lists()))

    @extend_schema(operation_id="leaderboard_read", tags=["leaderboard"], parameters=[InputSerializer],
                   responses={200: LeaderboardOutputSerializer,
                              400: bad_request_response("an unknown language (`{\"language\": [message]}`)"),
                              404: error_response("no such benchmark or split")})
    def get(self, request):
        """Ranked rows of a split for one language view, with 95% bootstrap intervals and tie markers (`origin`:
        `evaluated` by us, or `reported` by the authors and verified by an admin); `oracle`: the reference
        solutions' metrics, never ranked; `excluded_tasks`: tasks with N = 0, left out of every mean; then
        `reported`: the published results of the split that are not ranked in this view (never evaluated by us).
        `sort`, `order`, `type`, `framework`, `base_model`, `q`, `open_source`, `since`, `until` sort and filter
        `rows` as the
        board's page does (ranks stay those of the whole board). 400 for an unknown language or sort key or a bad
        date, 404 for an unknown benchmark or split."""
        query = self.InputSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        def data() -> dict[str, Any]:
            split = split_get(benchmark=query.validated_data.get("benchmark"),
                              split=query.validated_data.get("split"))  # NotFound: 404, nothing cached
            return self._data(request, split, query.validated_data["language"])

        # the whole answer, once per board version and query string (the version covers which split it names;
        # leaderboard.board_cache): a cached answer costs one query
        return board_cached_response(request, self.answer_key_parts(request.query_params), data)

    @staticmethod
    def _data(request, split: Split, language: str) -> dict[str, Any]:
        rows = leaderboard_rows(split=split, language=language)
        shown = board_filter(rows, query=board_query(request.query_params))
        oracle = [{"system": o["system"].name, "submission": o["run"].submission_id, **o["metrics"],
                   "badges": badge_keys(row_badges(o)), "source_url": o["system"].source_url}
                  for o in reference_rows(split=split, language=language)]
        data = {"benchmark": split.benchmark.name, "version": split.benchmark.version, "split": split.name,
                "language": language, "rows": [r.as_dict() for r in shown],
                "oracle": oracle, "excluded_tasks": excluded_task_names(split=split, language=language),
                "reported": reported_apart_as_dicts(split=split, language=language, rows=rows)}
        return dict(LeaderboardOutputSerializer(data).data)



class ReportedApi(APIView):
    """GET /api/v1/reported/: the published results "reported by the authors" (see `get`)."""

    permission_classes = [permissions.AllowAny]

    class InputSerializer(serializers.Serializer):
        """?benchmark=&split=: filters by name, none by default."""

        benchmark = serializers.CharField(required=False, allow_blank=True,
                                          help_text="only rows of this benchmark (by name)")
        split = serializers.CharField(required=False, allow_blank=True, help_text="only rows of this split (by name)")

    pagination_class = ApiPagination

    @extend_schema(operation_id="reported_list", tags=["leaderboard"], parameters=[InputSerializer],
                   responses={200: ReportedResultOutputSerializer(many=True),
                              404: error_response("a page past the end")})
    def get(self, request):
        """Every published result "reported by the authors" (optionally of one benchmark and split, by name; an
        unknown name gives an empty list): values in percent as published, source, consistency findings, whether
        an admin verified it. One page (leaderboard.api.pagination): {"count", "next", "previous",
        "results": [row]}."""
        query = self.InputSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        rows = reported_results(benchmark=query.validated_data.get("benchmark"),
                                split=query.validated_data.get("split")).order_by("benchmark_name", "split_name",
                                                                                   "line", "pk")
        return paginated_response(self, request, rows, lambda page: ReportedResultOutputSerializer(
            [{"benchmark": r.benchmark_name, "split": r.split_name, **reported_as_dict(r)} for r in page],
            many=True).data)


# --- the task catalog ----------------------------------------------------------------------------------------
class DeclaredEndpointOutputSerializer(PayloadSerializer):
    """An endpoint the task's README declares (what AC counts)."""

    method = serializers.CharField()
    path = serializers.CharField(help_text="e.g. /items/{id}")


class FixOutputSerializer(PayloadSerializer):
    """A documented fix of the task's suite (benchmark manifest `fixes`)."""

    kind = serializers.CharField()
    args = serializers.ListField(child=serializers.CharField())
    why = serializers.CharField()


class DefectOutputSerializer(PayloadSerializer):
    """A defect note of the task (docs/scoring.md "Task defects")."""

    kind = serializers.CharField()
    text = serializers.CharField()
    source = serializers.CharField(required=False, help_text="`import` (found by us) or `manifest`")


class ReferenceRunOutputSerializer(PayloadSerializer):
    """One check run of the task's reference solution against its own suite."""

    outcome = serializers.CharField()
    passed = serializers.IntegerField()
    total = serializers.IntegerField()
    seconds = serializers.FloatField(allow_null=True)


class ReferenceCheckOutputSerializer(PayloadSerializer):
    """What the checks of the task's reference solution found."""

    status = serializers.CharField(help_text="passed, flaky, failed, none (no reference shipped) or unchecked")
    detail = serializers.CharField()
    runs = ReferenceRunOutputSerializer(many=True)
    passed_runs = serializers.IntegerField()
    flake_rate = serializers.FloatField(allow_null=True, help_text="share of check runs that failed; null "
                                                                   "when never checked")


class TaskDifficultyOutputSerializer(PayloadSerializer):
    """How a task separates the ranked systems (core.grading.metrics.TaskDifficulty): null values when no
    system is scored on it, a null label while fewer than core.grading.metrics.MIN_LABELLED_SYSTEMS are."""

    systems = serializers.IntegerField(help_text="ranked systems scored on the task")
    solved_share = serializers.FloatField(allow_null=True, help_text="share of them that solve it (P = N)")
    mean_pass_at_1 = serializers.FloatField(allow_null=True)
    spread = serializers.FloatField(allow_null=True, help_text="standard deviation of their Pass@1, in [0, 0.5]")
    label = serializers.ChoiceField(allow_null=True, choices=["saturated", "never solved", "discriminating"],
                                    help_text="the rule of docs/scoring.md; null while fewer than "
                                              f"{MIN_LABELLED_SYSTEMS} ranked systems are scored on it")


class TaskHealthOutputSerializer(PayloadSerializer):
    """leaderboard.selectors.task_health's row without the task itself: whether the task's scores can be trusted."""

    port_source = serializers.CharField(help_text="the README line (or file) that gave the port")
    tests_total = serializers.IntegerField(help_text="N, the hidden tests")
    excluded = serializers.BooleanField(help_text="N = 0: left out of every mean")
    suite_kind = serializers.CharField()
    fixes = FixOutputSerializer(many=True)
    defects = DefectOutputSerializer(many=True)
    reference = ReferenceCheckOutputSerializer()
    systems = serializers.IntegerField(help_text="ranked systems with a run on the task")
    solved_share = serializers.FloatField(allow_null=True, help_text="share of them that solve it; null when no "
                                                                     "system is scored")
    mean_pass_at_1 = serializers.FloatField(allow_null=True)
    difficulty = TaskDifficultyOutputSerializer(
        help_text='docs/scoring.md "Task difficulty and discrimination": spread and label')


class TaskOutputSerializer(PayloadSerializer):
    """A task of the split with its health; `readme` only on public splits."""

    name = serializers.CharField()
    language = serializers.ChoiceField(choices=Language.choices)
    framework = serializers.CharField()
    framework_guessed = serializers.BooleanField(help_text="guessed from the README, not stated")
    domain = serializers.CharField()
    port = serializers.IntegerField()
    tests_total = serializers.IntegerField()
    declared_endpoints = DeclaredEndpointOutputSerializer(many=True)
    reference_status = serializers.CharField()
    health = TaskHealthOutputSerializer()
    readme = serializers.CharField(required=False, help_text="the requirement document (public splits only)")


class TaskListOutputSerializer(PayloadSerializer):
    """GET /api/v1/tasks/."""

    benchmark = serializers.CharField()
    version = serializers.CharField()
    split = serializers.CharField()
    info = serializers.DictField(help_text="the benchmark manifest's facts: paper, source, licence, ...")
    tasks = TaskOutputSerializer(many=True)


class TaskListApi(APIView):
    """GET /api/v1/tasks/: the split's tasks with their health (see `get`)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="tasks_list", tags=["tasks"], parameters=[SplitQuerySerializer],
                   responses={200: TaskListOutputSerializer, 404: error_response("no such benchmark or split")})
    def get(self, request):
        """The split's tasks: language, framework, domain, port, declared endpoints, health (port source, N, suite
        kind, fixes, defects, excluded, reference result and flake rate, share of systems that solve it), README
        for public splits. 404 for an unknown benchmark or split."""
        query = SplitQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        split = split_get(benchmark=query.validated_data.get("benchmark"), split=query.validated_data.get("split"))
        public = split.visibility == Split.Visibility.PUBLIC
        tasks = [{"name": t.name, "language": t.language, "framework": t.framework,
                  "framework_guessed": t.framework_guessed, "domain": t.domain, "port": t.port,
                  "tests_total": t.tests_total, "declared_endpoints": t.declared_endpoints,
                  "reference_status": t.reference_status, "health": _health_dict(h),
                  **({"readme": t.readme} if public else {})}
                 for h in task_health(split=split) for t in [h["task"]]]
        data = {"benchmark": split.benchmark.name, "version": split.benchmark.version, "split": split.name,
                "info": split.benchmark.info, "tasks": tasks}
        return Response(TaskListOutputSerializer(data).data)


def _health_dict(health: dict) -> dict:
    """task_health()'s row without the model object: what the benchmark's authors can read as JSON."""
    return {k: v for k, v in health.items() if k not in ("task", "name", "language", "port")}


# --- systems and tokens --------------------------------------------------------------------------------------
class SystemSerializer(serializers.ModelSerializer):
    """A system, in (POST /api/v1/systems/: name, agent_framework, base_model, type, url, description) and out
    (with id, team and created_at)."""

    team = serializers.CharField(source="team.name", read_only=True)

    class Meta:
        model = System
        fields = ["id", "name", "team", "agent_framework", "base_model", "type", "url", "source_url", "description",
                  "created_at"]
        read_only_fields = ["id", "team", "created_at"]


def _type_validated(serializer: serializers.Serializer, value: str, current: str | None) -> str:
    """`value` when the request's user may give a system that type (catalog.services.system_type_problem: the
    oracle's type `reference` is staff-only); raises a serializer ValidationError with the reason otherwise."""
    problem = system_type_problem(user=serializer.context["request"].user, type=value, current=current)
    if problem:
        raise serializers.ValidationError(problem)
    return value


class SystemCreateInputSerializer(SystemSerializer):
    """POST /api/v1/systems/: the system's fields and, optionally, which of your teams owns it. Needs the request
    in its context: only staff may create a system of type `reference` (400 naming the field otherwise)."""

    team = serializers.CharField(required=False, max_length=100,
                                 help_text="name of one of your teams (default: your first team)")

    def validate_type(self, value: str) -> str:
        return _type_validated(self, value, None)


class SystemListCreateApi(APIView):
    """/api/v1/systems/: GET every system, POST create one for the caller's team."""

    pagination_class = ApiPagination

    @extend_schema(operation_id="systems_list", tags=["systems"],
                   responses={200: SystemSerializer(many=True), 404: error_response("a page past the end")})
    def get(self, request):
        """Every system, by name, one page at a time (leaderboard.api.pagination): {"count", "next",
        "previous", "results": [system]}."""
        systems = System.objects.select_related("team").order_by("name", "pk")
        return paginated_response(self, request, systems, lambda page: SystemSerializer(page, many=True).data)

    @extend_schema(operation_id="systems_create", tags=["systems"], request=SystemCreateInputSerializer,
                   responses={201: SystemSerializer, 400: bad_request_response("a bad or taken field, or a team "
                                                                               "you are not a member of")})
    def post(self, request):
        """Create a system owned by the caller's team (made on first use), or by the team named in `team` (one of
        the caller's). 400 with {field: [messages]} for a bad field (a taken name, an unknown type, a team that is
        not the caller's, ...)."""
        ser = SystemCreateInputSerializer(data=request.data, context={"request": request})
        ser.is_valid(raise_exception=True)
        fields = dict(ser.validated_data)
        team_name = fields.pop("team", None)
        team = team_for_user(user=request.user)
        if team_name:
            team = request.user.teams.filter(name=team_name).first()
            if team is None:
                raise serializers.ValidationError({"team": [f"you are not a member of a team named {team_name!r}"]})
        system = system_create(team=team, **fields)
        return Response(SystemSerializer(system).data, status=status.HTTP_201_CREATED)


class SystemUpdateSerializer(serializers.Serializer):
    """PATCH /api/v1/systems/{ref}/: any of these fields. Needs the request and the system in its context: only
    staff may switch a system to type `reference` (400 naming the field otherwise)."""

    name = serializers.CharField(required=False, max_length=100)
    agent_framework = serializers.CharField(required=False, allow_blank=True, max_length=100)
    base_model = serializers.CharField(required=False, allow_blank=True, max_length=100)
    type = serializers.ChoiceField(required=False, choices=System.Type.choices)
    url = serializers.URLField(required=False, allow_blank=True)
    source_url = serializers.URLField(required=False, allow_blank=True, help_text="the system's public code")
    description = serializers.CharField(required=False, allow_blank=True, max_length=2000)

    def validate_type(self, value: str) -> str:
        return _type_validated(self, value, self.context["system"].type)


class SystemDetailOutputSerializer(SystemSerializer):
    """A system with `ranked`: whether it has a ranked submission (then only url and description can change and
    it cannot be deleted)."""

    ranked = serializers.SerializerMethodField()

    class Meta(SystemSerializer.Meta):
        fields = [*SystemSerializer.Meta.fields, "ranked"]

    def get_ranked(self, system: System) -> bool:
        return system_has_ranked_submission(system=system)


class SystemDetailApi(APIView):
    """/api/v1/systems/{ref}/: GET a system, PATCH (edit) or DELETE one of your team's."""

    def _system(self, ref: str) -> System:
        system = system_by_ref(ref)
        if system is None:
            raise exceptions.NotFound(f"no system {ref!r}")
        return system

    @extend_schema(operation_id="system_read", tags=["systems"],
                   responses={200: SystemDetailOutputSerializer, 404: error_response("no such system")})
    def get(self, request, ref: str):
        """The system named or numbered `ref`."""
        return Response(SystemDetailOutputSerializer(self._system(ref)).data)

    @extend_schema(operation_id="system_update", tags=["systems"], request=SystemUpdateSerializer,
                   responses={200: SystemDetailOutputSerializer,
                              400: bad_request_response("a bad or taken value, or a field a ranked system keeps"),
                              403: error_response("not signed in, or another team's system"),
                              404: error_response("no such system")})
    def patch(self, request, ref: str):
        """Change fields of your team's system. A system with a ranked submission may change only its url,
        source_url and description (400 naming the field otherwise)."""
        system = self._system(ref)
        system_member_check(system, request.user)  # another team's system: 403 before the body's 400
        ser = SystemUpdateSerializer(data=request.data, partial=True,
                                     context={"request": request, "system": system})
        ser.is_valid(raise_exception=True)
        system = system_update(system=system, user=request.user, **ser.validated_data)
        return Response(SystemDetailOutputSerializer(system).data)

    @extend_schema(operation_id="system_delete", tags=["systems"], request=None,
                   responses={204: None, 403: error_response("not signed in, or another team's system"),
                              404: error_response("no such system"),
                              409: error_response("it has a ranked submission, or one still running")})
    def delete(self, request, ref: str):
        """Delete your team's system with its submissions; 409 when it has a ranked submission (on the board or
        withdrawn from it) or a submission still generating, queued or running."""
        system_delete(system=self._system(ref), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
