"""API for agent endpoints: register/update/remove a system's endpoint, start an endpoint run on a split."""
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog.models import System
from catalog.selectors import NotFound as SplitNotFound
from catalog.selectors import split_get

from submissions.services import QuotaExceeded, SubmissionError
from submissions.agents.selectors import endpoint_data, endpoint_get
from evaluation.services import generation_start
from submissions.agents.services import endpoint_delete, endpoint_register
from leaderboard.api.submissions import submission_data


def _own_system(request, ref: str) -> System:
    """The system named or numbered `ref` if the caller's team owns it (404 if unknown, 403 if not theirs)."""
    lookup = {"pk": int(ref)} if ref.isdigit() else {"name": ref}
    system = System.objects.filter(**lookup).select_related("team").first()
    if system is None:
        raise NotFound(f"no system {ref!r}")
    if not system.team.members.filter(pk=request.user.pk).exists():
        raise PermissionDenied(f"the system {system.name!r} belongs to another team")
    return system


class EndpointSerializer(serializers.Serializer):
    url = serializers.CharField(max_length=500, help_text="http(s) URL of your agent (public address)")
    secret = serializers.CharField(required=False, allow_blank=True, max_length=500, write_only=True,
                                   help_text="sent as `Authorization: Bearer <secret>`; blank keeps the current one")


class RunSerializer(serializers.Serializer):
    benchmark = serializers.CharField(required=False)
    split = serializers.CharField(required=False)
    note = serializers.CharField(required=False, allow_blank=True, max_length=300)
    is_public = serializers.BooleanField(required=False, default=True)


class EndpointApi(APIView):
    """GET: the system's endpoint (URL, last 4 characters of the secret). PUT/POST: register or update.
    DELETE: remove. Team members only."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: dict})
    def get(self, request, ref: str):
        endpoint = endpoint_get(system=_own_system(request, ref))
        if endpoint is None:
            raise NotFound("this system has no agent endpoint")
        return Response(endpoint_data(endpoint))

    @extend_schema(request=EndpointSerializer, responses={200: dict, 400: dict})
    def put(self, request, ref: str):
        system = _own_system(request, ref)
        ser = EndpointSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        try:
            endpoint = endpoint_register(system=system, url=ser.validated_data["url"],
                                         secret=ser.validated_data.get("secret", ""), user=request.user)
        except SubmissionError as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_400_BAD_REQUEST)
        return Response(endpoint_data(endpoint))

    post = put

    @extend_schema(responses={204: None})
    def delete(self, request, ref: str):
        if not endpoint_delete(system=_own_system(request, ref)):
            raise NotFound("this system has no agent endpoint")
        return Response(status=status.HTTP_204_NO_CONTENT)


class SystemRunApi(APIView):
    """POST: start an endpoint run of the system on a split (default: the site's). The submission starts in
    `generating`; follow it at /api/v1/submissions/<id>/ (its `generation` lists every task's call)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=RunSerializer, responses={201: dict, 400: dict, 429: dict})
    def post(self, request, ref: str):

        system = _own_system(request, ref)
        ser = RunSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        data = ser.validated_data
        try:
            split = split_get(benchmark=data.get("benchmark"), split=data.get("split"))
            submission = generation_start(system=system, split=split, user=request.user, note=data.get("note", ""),
                                          is_public=data["is_public"])
        except QuotaExceeded as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_429_TOO_MANY_REQUESTS)
        except (SubmissionError, SplitNotFound) as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_400_BAD_REQUEST)
        return Response(submission_data(submission, member=True), status=status.HTTP_201_CREATED)
