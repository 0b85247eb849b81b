"""Team API: your teams, a team's webhook and its delivery log. Members only; domain errors are raised, never
caught here: leaderboard.api.errors maps them (a refused webhook 400, a non-member 403)."""
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog.models import Team, TeamInvitation
from catalog.selectors import invitations_received, user_in_team
from catalog.services import invitation_answer, team_invite, team_leave, team_rename
from leaderboard.api.board import PayloadSerializer, bad_request_response, error_response
from leaderboard.api.pagination import ApiPagination, paginated_response
from leaderboard.api.submissions import QuotaOutputSerializer
from submissions.models import TeamWebhook, WebhookDelivery
from submissions.quota import quota_status
from submissions.webhooks import deliveries_of, webhook_register, webhook_remove

NOT_MEMBER = error_response("not signed in, or not a member of the team")


def _member_team(request, pk: int) -> Team:
    team = Team.objects.filter(pk=pk).first()
    if team is None:
        raise NotFound(f"no team {pk}")
    if not user_in_team(user=request.user, team=team):
        raise PermissionDenied(f"you are not a member of {team.name}")
    return team


class TeamOutputSerializer(PayloadSerializer):
    """A team of yours: members, systems and quota."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    members = serializers.ListField(child=serializers.CharField(), help_text="user names")
    systems = serializers.ListField(child=serializers.CharField(), help_text="system names")
    quota = QuotaOutputSerializer()


def team_data(team: Team) -> dict:
    """The JSON of TeamOutputSerializer."""
    quota = quota_status(team=team)
    return {"id": team.pk, "name": team.name,
            "members": list(team.members.order_by("username").values_list("username", flat=True)),
            "systems": list(team.systems.order_by("name").values_list("name", flat=True)),
            "quota": {**quota.as_dict(), "text": quota.sentence()}}


class TeamListApi(APIView):
    """GET /api/v1/teams/: the teams you belong to."""

    permission_classes = [permissions.IsAuthenticated]
    pagination_class = ApiPagination

    @extend_schema(operation_id="teams_list", tags=["teams"], responses={200: TeamOutputSerializer(many=True)})
    def get(self, request):
        """Your teams, by name, each with its members, systems and daily quota."""
        return paginated_response(self, request, request.user.teams.order_by("name"),
                                  lambda page: TeamOutputSerializer([team_data(t) for t in page], many=True).data)


class TeamRenameSerializer(serializers.Serializer):
    """PATCH /api/v1/teams/{id}/."""

    name = serializers.CharField(max_length=100)


class TeamDetailApi(APIView):
    """/api/v1/teams/{id}/: GET a team of yours, PATCH its name."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="team_read", tags=["teams"],
                   responses={200: TeamOutputSerializer, 403: NOT_MEMBER, 404: error_response("no such team")})
    def get(self, request, pk: int):
        """A team of yours: members, systems and daily quota."""
        return Response(TeamOutputSerializer(team_data(_member_team(request, pk))).data)

    @extend_schema(operation_id="team_update", tags=["teams"], request=TeamRenameSerializer,
                   responses={200: TeamOutputSerializer, 400: bad_request_response("a blank, taken or look-alike name"),
                              403: NOT_MEMBER, 404: error_response("no such team")})
    def patch(self, request, pk: int):
        """Rename a team of yours (unique under the same look-alike rule as system names)."""
        team = _member_team(request, pk)
        ser = TeamRenameSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        return Response(TeamOutputSerializer(team_data(team_rename(team=team, user=request.user,
                                                                   name=ser.validated_data["name"]))).data)


class TeamLeaveApi(APIView):
    """POST /api/v1/teams/{id}/leave/."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="team_leave", tags=["teams"], request=None,
                   responses={204: None, 400: bad_request_response("you are its last member"), 403: NOT_MEMBER,
                              404: error_response("no such team")})
    def post(self, request, pk: int):
        """Leave a team of yours; its systems and submissions stay the team's. 400 for its last member."""
        team_leave(team=_member_team(request, pk), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class InvitationOutputSerializer(PayloadSerializer):
    """An invitation to join a team."""

    id = serializers.IntegerField()
    team = serializers.CharField()
    team_id = serializers.IntegerField()
    invitee = serializers.CharField(help_text="user name of the invited account; for an invitation made by e-mail "
                                              "address, that address (in lower case) until it is accepted: until "
                                              "it is answered, an invitation by address is tied to no account, and "
                                              "whether an account has verified the address is never told")
    invited_by = serializers.CharField(allow_null=True)
    status = serializers.ChoiceField(choices=TeamInvitation.Status.choices)
    created_at = serializers.DateTimeField()
    answered_at = serializers.DateTimeField(allow_null=True)


def invitation_data(i: TeamInvitation) -> dict:
    """The JSON of InvitationOutputSerializer."""
    return {"id": i.pk, "team": i.team.name, "team_id": i.team_id, "invitee": i.invitee_shown,
            "invited_by": i.invited_by.username if i.invited_by else None, "status": i.status,
            "created_at": i.created_at, "answered_at": i.answered_at}


def _invitations(rows, view, request):
    rows = rows.select_related("team", "invitee", "invited_by")
    return paginated_response(view, request, rows, lambda page: InvitationOutputSerializer(
        [invitation_data(i) for i in page], many=True).data)


class InviteInputSerializer(serializers.Serializer):
    """POST /api/v1/teams/{id}/invitations/."""

    # blank or absent: the service answers what to give (the page's form and the API say the same)
    user = serializers.CharField(max_length=254, required=False, allow_blank=True, default="",
                                 help_text="a user name, or an e-mail address (it holds an @): an invitation by "
                                           "address is made whether or not an account has verified it (201 "
                                           "either way); the account that has, if any, sees it and is e-mailed")


class TeamInvitationsApi(APIView):
    """/api/v1/teams/{id}/invitations/: GET the team's pending invitations, POST invite an account."""

    permission_classes = [permissions.IsAuthenticated]
    pagination_class = ApiPagination

    @extend_schema(operation_id="team_invitations_list", tags=["teams"],
                   responses={200: InvitationOutputSerializer(many=True), 403: NOT_MEMBER})
    def get(self, request, pk: int):
        """The team's pending invitations, newest first."""
        team = _member_team(request, pk)
        return _invitations(team.invitations.filter(status=TeamInvitation.Status.PENDING), self, request)

    @extend_schema(operation_id="team_invite", tags=["teams"], request=InviteInputSerializer,
                   responses={201: InvitationOutputSerializer, 403: NOT_MEMBER,
                              400: bad_request_response("no account of that user name, it is a member already, "
                                                        "the name or address has a pending invitation, a malformed "
                                                        "address, team full, a daily limit")})
    def post(self, request, pk: int):
        """Invite an account by user name, or by e-mail address, to join the team; it accepts on its /teams/ page
        or with POST /api/v1/invitations/{id}/accept/. An invitation by address is made (201) whether or not an
        account has verified the address, and is tied to no account until it is answered: it is refused only for
        a malformed address, a pending invitation to it, a full team or a daily limit, never for who owns it."""
        team = _member_team(request, pk)
        ser = InviteInputSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        invitation = team_invite(team=team, by=request.user, who=ser.validated_data["user"])
        return Response(InvitationOutputSerializer(invitation_data(invitation)).data, status=status.HTTP_201_CREATED)


class MyInvitationsApi(APIView):
    """GET /api/v1/invitations/: the invitations waiting for your answer (to your user name or verified address)."""

    permission_classes = [permissions.IsAuthenticated]
    pagination_class = ApiPagination

    @extend_schema(operation_id="invitations_list", tags=["teams"],
                   responses={200: InvitationOutputSerializer(many=True)})
    def get(self, request):
        """Your pending invitations, newest first: to your user name, and to your verified e-mail address."""
        return _invitations(invitations_received(user=request.user).filter(status=TeamInvitation.Status.PENDING),
                            self, request)


def _invitation(pk: int) -> TeamInvitation:
    invitation = TeamInvitation.objects.select_related("team", "invitee", "invited_by").filter(pk=pk).first()
    if invitation is None:
        raise NotFound(f"no invitation {pk}")
    return invitation


class InvitationAcceptApi(APIView):
    """POST /api/v1/invitations/{id}/accept/."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="invitation_accept", tags=["teams"], request=None,
                   responses={200: InvitationOutputSerializer, 400: bad_request_response("no longer pending"),
                              403: error_response("not your invitation"), 404: error_response("no such invitation")})
    def post(self, request, pk: int):
        """Accept an invitation of yours (to your user name, or to your verified e-mail address: it is then tied to
        your account): you become a member of the team (its systems, its quota); your other pending invitations to
        the team are closed with it."""
        invitation = invitation_answer(invitation=_invitation(pk), user=request.user, accept=True)
        return Response(InvitationOutputSerializer(invitation_data(invitation)).data)


class InvitationDeclineApi(APIView):
    """POST /api/v1/invitations/{id}/decline/."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="invitation_decline", tags=["teams"], request=None,
                   responses={200: InvitationOutputSerializer, 400: bad_request_response("no longer pending"),
                              403: error_response("neither invited nor a member of the team"),
                              404: error_response("no such invitation")})
    def post(self, request, pk: int):
        """Decline an invitation of yours, or revoke one your team made."""
        invitation = invitation_answer(invitation=_invitation(pk), user=request.user, accept=False)
        return Response(InvitationOutputSerializer(invitation_data(invitation)).data)


class WebhookInputSerializer(serializers.Serializer):
    """PUT /api/v1/teams/{id}/webhook/."""

    url = serializers.CharField(max_length=500, help_text="http(s) URL on a public address; redirects are not followed")
    secret = serializers.CharField(required=False, allow_blank=True, max_length=500, write_only=True,
                                   help_text="signs every delivery (X-RG-Signature); blank keeps the current one")


class WebhookOutputSerializer(PayloadSerializer):
    """The team's webhook; the secret itself is never returned."""

    url = serializers.CharField()
    secret_hint = serializers.CharField(help_text="…abcd: the secret's last 4 characters")
    is_active = serializers.BooleanField()
    updated_at = serializers.DateTimeField()


def _webhook_data(hook: TeamWebhook) -> dict:
    return {"url": hook.url, "secret_hint": hook.secret_hint, "is_active": hook.is_active,
            "updated_at": hook.updated_at}


class WebhookApi(APIView):
    """/api/v1/teams/{id}/webhook/: GET, PUT (register or update), DELETE the team's webhook."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="team_webhook_read", tags=["teams"],
                   responses={200: WebhookOutputSerializer, 403: NOT_MEMBER, 404: error_response("no webhook")})
    def get(self, request, pk: int):
        """The team's webhook (404 when none is registered)."""
        hook = TeamWebhook.objects.filter(team=_member_team(request, pk)).first()
        if hook is None:
            raise NotFound("the team has no webhook")
        return Response(WebhookOutputSerializer(_webhook_data(hook)).data)

    @extend_schema(operation_id="team_webhook_update", tags=["teams"], request=WebhookInputSerializer,
                   responses={200: WebhookOutputSerializer, 403: NOT_MEMBER,
                              400: bad_request_response("the URL failed the SSRF guard, or a bad secret")})
    def put(self, request, pk: int):
        """Register or update the team's webhook: it receives submission.finished and submission.failed events.
        The URL must be on a public address (400 with the reason otherwise); the secret (16 to 500 printable
        characters) is required the first time."""
        team = _member_team(request, pk)
        ser = WebhookInputSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        hook = webhook_register(team=team, user=request.user, url=ser.validated_data["url"],
                                secret=ser.validated_data.get("secret", ""))
        return Response(WebhookOutputSerializer(_webhook_data(hook)).data)

    @extend_schema(operation_id="team_webhook_delete", tags=["teams"], request=None,
                   responses={204: None, 403: NOT_MEMBER, 404: error_response("no webhook")})
    def delete(self, request, pk: int):
        """Remove the team's webhook; its delivery log stays."""
        if not webhook_remove(team=_member_team(request, pk), user=request.user):
            raise NotFound("the team has no webhook")
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeliveryOutputSerializer(PayloadSerializer):
    """One event sent to the team's webhook, with every attempt."""

    id = serializers.IntegerField()
    event = serializers.CharField()
    submission = serializers.IntegerField(allow_null=True)
    url = serializers.CharField()
    status = serializers.ChoiceField(choices=WebhookDelivery.Status.choices)
    attempts = serializers.IntegerField()
    http_status = serializers.IntegerField(allow_null=True, help_text="status of the last answer")
    error = serializers.CharField(help_text="why the last attempt failed")
    attempts_log = serializers.ListField(child=serializers.DictField(),
                                         help_text='[{"at", "status", "seconds", "error"}], oldest first')
    created_at = serializers.DateTimeField()
    delivered_at = serializers.DateTimeField(allow_null=True)


class DeliveryListApi(APIView):
    """GET /api/v1/teams/{id}/webhook/deliveries/."""

    permission_classes = [permissions.IsAuthenticated]
    pagination_class = ApiPagination

    @extend_schema(operation_id="team_webhook_deliveries", tags=["teams"],
                   responses={200: DeliveryOutputSerializer(many=True), 403: NOT_MEMBER})
    def get(self, request, pk: int):
        """The team's delivery log, newest first."""
        rows = deliveries_of(team=_member_team(request, pk), user=request.user)
        return paginated_response(self, request, rows, lambda page: DeliveryOutputSerializer([{
            "id": d.pk, "event": d.event, "submission": d.submission_id, "url": d.url, "status": d.status,
            "attempts": d.attempts, "http_status": d.http_status, "error": d.error, "attempts_log": d.attempts_log,
            "created_at": d.created_at, "delivered_at": d.delivered_at} for d in page], many=True).data)
