"""Leaderboard, task catalog and system API views: parse input, call one selector or service, render."""
from django.core.exceptions import ValidationError
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound as ApiNotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog.models import Split, System
from catalog.selectors import NotFound, excluded_task_names, reported_as_dict, reported_results, split_get
from leaderboard.selectors import leaderboard_rows, reference_rows, reported_apart_as_dicts, task_health
from catalog.services import system_create, team_for_user

SPLIT_PARAMS = [OpenApiParameter("benchmark", str, description="benchmark name (default: the site's)"),
                OpenApiParameter("split", str, description="split name (default: verified)")]


def _split(request) -> Split:
    try:
        return split_get(benchmark=request.query_params.get("benchmark"), split=request.query_params.get("split"))
    except NotFound as exc:
        raise ApiNotFound(str(exc)) from exc


class LeaderboardApi(APIView):
    """Ranked rows of a split for one language view, with 95% bootstrap intervals and tie markers (`origin`:
    `evaluated` by us, or `reported` by the authors and verified by an admin); `oracle`: the reference solutions'
    metrics, never ranked; `excluded_tasks`: tasks with N = 0, left out of every mean; then `reported`: the published
    results of the split that are not ranked in this view (never evaluated by us)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=SPLIT_PARAMS + [OpenApiParameter("language", str, enum=["python", "java", "overall"])],
                   responses={200: dict})
    def get(self, request):
        split = _split(request)
        language = request.query_params.get("language", "overall")
        try:
            rows = leaderboard_rows(split=split, language=language)
        except NotFound as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_400_BAD_REQUEST)
        oracle = [{"system": o["system"].name, "submission": o["run"].submission_id, **o["metrics"]}
                  for o in reference_rows(split=split, language=language)]
        return Response({"benchmark": split.benchmark.name, "version": split.benchmark.version, "split": split.name,
                         "language": language, "rows": [r.as_dict() for r in rows],
                         "oracle": oracle, "excluded_tasks": excluded_task_names(split=split, language=language),
                         "reported": reported_apart_as_dicts(split=split, language=language, rows=rows)})


class ReportedApi(APIView):
    """Every published result "reported by the authors" (optionally of one benchmark and split): values in
    percent as published, source, consistency findings, whether an admin verified it."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[OpenApiParameter("benchmark", str), OpenApiParameter("split", str)],
                   responses={200: dict})
    def get(self, request):
        rows = reported_results(benchmark=request.query_params.get("benchmark"),
                                split=request.query_params.get("split"))
        return Response({"results": [{"benchmark": r.benchmark_name, "split": r.split_name, **reported_as_dict(r)}
                                     for r in rows]})


class TaskListApi(APIView):
    """The split's tasks: language, framework, domain, port, declared endpoints, health (port source, N, suite
    kind, fixes, defects, excluded, reference result and flake rate, share of systems that solve it), README for
    public splits."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=SPLIT_PARAMS, responses={200: dict})
    def get(self, request):
        split = _split(request)
        public = split.visibility == Split.Visibility.PUBLIC
        tasks = [{"name": t.name, "language": t.language, "framework": t.framework,
                  "framework_guessed": t.framework_guessed, "domain": t.domain, "port": t.port,
                  "tests_total": t.tests_total, "declared_endpoints": t.declared_endpoints,
                  "reference_status": t.reference_status, "health": _health_dict(h),
                  **({"readme": t.readme} if public else {})}
                 for h in task_health(split=split) for t in [h["task"]]]
        return Response({"benchmark": split.benchmark.name, "version": split.benchmark.version, "split": split.name,
                         "info": split.benchmark.info, "tasks": tasks})


def _health_dict(health: dict) -> dict:
    """task_health()'s row without the model object: what the benchmark's authors can read as JSON."""
    return {k: v for k, v in health.items() if k not in ("task", "name", "language", "port")}


class SystemSerializer(serializers.ModelSerializer):
    team = serializers.CharField(source="team.name", read_only=True)

    class Meta:
        model = System
        fields = ["id", "name", "team", "agent_framework", "base_model", "type", "url", "description", "created_at"]
        read_only_fields = ["id", "team", "created_at"]


class SystemListCreateApi(APIView):
    """GET: every system. POST: create a system owned by the caller's team."""

    @extend_schema(responses={200: SystemSerializer(many=True)})
    def get(self, request):
        return Response(SystemSerializer(System.objects.select_related("team"), many=True).data)

    @extend_schema(request=SystemSerializer, responses={201: SystemSerializer})
    def post(self, request):
        ser = SystemSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        try:
            system = system_create(team=team_for_user(user=request.user), **ser.validated_data)
        except ValidationError as exc:
            return Response(exc.message_dict, status=status.HTTP_400_BAD_REQUEST)
        return Response(SystemSerializer(system).data, status=status.HTTP_201_CREATED)
