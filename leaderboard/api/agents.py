"""API for agent endpoints: register/update/remove a system's endpoint, start an endpoint run on a split.
Domain errors are raised, never caught here: leaderboard.api.errors maps them (a refused endpoint or run is 400,
a used quota 429)."""
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog.models import System
from catalog.selectors import system_by_ref, user_in_team

from submissions.agents.selectors import endpoint_data, endpoint_get
from evaluation.services import generation_start
from submissions.agents.services import endpoint_delete, endpoint_register
from leaderboard.api.board import PayloadSerializer, bad_request_response, error_response
from leaderboard.api.submissions import QUOTA_429, SubmissionOutputSerializer, split_from_body, submission_data

#: The {ref} of the /api/v1/systems/{ref}/... routes.
SYSTEM_REF = OpenApiParameter("ref", str, OpenApiParameter.PATH, description="system id or name")
NOT_YOURS = error_response("not signed in, or the system belongs to another team")


def _own_system(request, ref: str) -> System:
    """The system named or numbered `ref` if the caller's team owns it (404 if unknown, 403 if not theirs)."""
    system = system_by_ref(ref)
    if system is None:
        raise NotFound(f"no system {ref!r}")
    if not user_in_team(user=request.user, team=system.team):
        raise PermissionDenied(f"the system {system.name!r} belongs to another team")
    return system


class EndpointInputSerializer(serializers.Serializer):
    """PUT/POST /api/v1/systems/{ref}/endpoint/."""

    url = serializers.CharField(max_length=500, help_text="http(s) URL of your agent (public address)")
    secret = serializers.CharField(required=False, allow_blank=True, max_length=500, write_only=True,
                                   help_text="sent as `Authorization: Bearer <secret>`; blank keeps the current one")


class EndpointOutputSerializer(PayloadSerializer):
    """submissions.agents.selectors.endpoint_data: the secret itself is never returned, only its last 4
    characters."""

    system = serializers.CharField()
    url = serializers.CharField()
    secret_hint = serializers.CharField(help_text="…abcd: the secret's last 4 characters")
    updated_at = serializers.DateTimeField()


class RunStartInputSerializer(serializers.Serializer):
    """POST /api/v1/systems/{ref}/runs/."""

    benchmark = serializers.CharField(required=False, help_text="benchmark name (default: the site's)")
    split = serializers.CharField(required=False, help_text="split name (default: verified)")
    note = serializers.CharField(required=False, allow_blank=True, max_length=300)
    is_public = serializers.BooleanField(required=False, default=True)


#: The schema of PUT and POST /api/v1/systems/{ref}/endpoint/ (the same action under two methods).
ENDPOINT_WRITE = dict(
    tags=["agent endpoints"], parameters=[SYSTEM_REF], request=EndpointInputSerializer,
    responses={200: EndpointOutputSerializer,
               400: bad_request_response("the URL or secret was refused (scheme, address outside the allowed "
                                         "networks, a too short secret, ...)"),
               403: NOT_YOURS, 404: error_response("no such system")})


class EndpointApi(APIView):
    """/api/v1/systems/{ref}/endpoint/: GET the system's agent endpoint, PUT or POST register or update it,
    DELETE remove it. Team members only."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="system_endpoint_read", tags=["agent endpoints"], parameters=[SYSTEM_REF],
                   responses={200: EndpointOutputSerializer, 403: NOT_YOURS,
                              404: error_response("no such system, or it has no agent endpoint")})
    def get(self, request, ref: str):
        """The system's endpoint: URL and the last 4 characters of its secret. 403 unless the system is your
        team's, 404 when it has no endpoint."""
        endpoint = endpoint_get(system=_own_system(request, ref))
        if endpoint is None:
            raise NotFound("this system has no agent endpoint")
        return Response(EndpointOutputSerializer(endpoint_data(endpoint)).data)

    @extend_schema(operation_id="system_endpoint_update", **ENDPOINT_WRITE)
    def put(self, request, ref: str):
        """Register or update the system's endpoint (a blank secret keeps the current one); the URL is checked
        against AGENT_ALLOWED_NETWORKS. 400 with the reason when refused, 403 unless the system is your team's."""
        system = _own_system(request, ref)
        ser = EndpointInputSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        endpoint = endpoint_register(system=system, url=ser.validated_data["url"],
                                     secret=ser.validated_data.get("secret", ""), user=request.user)
        return Response(EndpointOutputSerializer(endpoint_data(endpoint)).data)

    @extend_schema(operation_id="system_endpoint_create", **ENDPOINT_WRITE)
    def post(self, request, ref: str):
        """The same as PUT (for clients and forms that only POST)."""
        return self.put(request, ref)

    @extend_schema(operation_id="system_endpoint_delete", tags=["agent endpoints"], parameters=[SYSTEM_REF],
                   responses={204: None, 403: NOT_YOURS,
                              404: error_response("no such system, or it has no agent endpoint")})
    def delete(self, request, ref: str):
        """Remove the system's endpoint. 404 when it has none."""
        if not endpoint_delete(system=_own_system(request, ref)):
            raise NotFound("this system has no agent endpoint")
        return Response(status=status.HTTP_204_NO_CONTENT)


class SystemRunApi(APIView):
    """POST /api/v1/systems/{ref}/runs/: start an endpoint run (see `post`)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="system_runs_create", tags=["agent endpoints"], parameters=[SYSTEM_REF],
                   request=RunStartInputSerializer,
                   responses={201: SubmissionOutputSerializer,
                              400: bad_request_response("the run was refused (no agent endpoint, a run already "
                                                        "calling it, a split runs may not target) or the split "
                                                        "is unknown"),
                              403: NOT_YOURS, 404: error_response("no such system"),
                              429: QUOTA_429})
    def post(self, request, ref: str):
        """Start an endpoint run of the system on a split (default: the site's): the platform calls the agent
        with each task's README. The submission starts in `generating`; follow it at /api/v1/submissions/{id}/
        (its `generation` lists every task's call). 400 with the reason when refused, 429 when the team's daily
        quota is used."""
        system = _own_system(request, ref)
        ser = RunStartInputSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        data = ser.validated_data
        submission = generation_start(system=system, split=split_from_body(data), user=request.user,
                                      note=data.get("note", ""), is_public=data["is_public"])
        return Response(SubmissionOutputSerializer(submission_data(submission, member=True)).data,
                        status=status.HTTP_201_CREATED)
