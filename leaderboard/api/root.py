"""GET /api/v1/: where the API's parts are (the fresh-user pass found a 404 page of HTML there)."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

#: (key, URL name) of the entry points listed; the others are reached from them (a system's, a submission's).
ENTRY_POINTS = (("leaderboard", "api-leaderboard"), ("tasks", "api-tasks"), ("reported", "api-reported"),
                ("compare", "api-compare"), ("matrix", "api-matrix"), ("cite", "api-cite"),
                ("systems", "api-systems"), ("submissions", "api-submissions"), ("quota", "api-quota"),
                ("teams", "api-teams"), ("invitations", "api-invitations"), ("token", "api-token"),
                ("schema", "schema"))


class ApiRoot(APIView):
    """The API's entry points as absolute URLs, with its OpenAPI schema and its documentation page."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="api_root", tags=["leaderboard"], responses={200: inline_serializer(
        "ApiRootOutput", {key: serializers.URLField() for key, _ in ENTRY_POINTS} | {"docs": serializers.URLField()})})
    def get(self, request):
        """{name: absolute URL} of each entry point, the schema (`schema`) and the documentation page (`docs`)."""
        links = {key: reverse(name, request=request) for key, name in ENTRY_POINTS}
        links["docs"] = request.build_absolute_uri("/api/docs/")
        return Response(links)
