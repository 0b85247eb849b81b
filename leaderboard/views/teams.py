"""Team pages: the user's teams, and one team's page (members, invitations, webhook and its delivery log), for its
members only."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from catalog.models import Team, TeamInvitation
from catalog.selectors import invitations_received, user_in_team
from catalog.services import TeamError, invitation_answer, team_invite, team_leave, team_rename
from submissions.models import TeamWebhook
from submissions.quota import quota_status
from submissions.webhooks import WebhookError, deliveries_of, webhook_register, webhook_remove

#: Deliveries shown on the team page (the API pages through all of them).
DELIVERIES_SHOWN = 30


def _member_team(request, pk: int) -> Team:
    team = get_object_or_404(Team, pk=pk)
    if not user_in_team(user=request.user, team=team):
        raise PermissionDenied("only the team's members see its page")
    return team


@login_required
def team_list(request):
    """The teams the user belongs to."""
    teams = request.user.teams.order_by("name").prefetch_related("members", "systems")
    invitations = invitations_received(user=request.user).filter(status=TeamInvitation.Status.PENDING
                                                                 ).select_related("team", "invited_by")
    return render(request, "leaderboard/team_list.html", {"teams": teams, "invitations": invitations})


@login_required
def team_detail(request, pk: int):
    """A team of the user: members, systems, quota, webhook and the latest deliveries."""
    team = _member_team(request, pk)
    return render(request, "leaderboard/team_detail.html", {
        "team": team, "members": team.members.order_by("username"), "systems": team.systems.order_by("name"),
        "quota": quota_status(team=team), "webhook": TeamWebhook.objects.filter(team=team).first(),
        "deliveries": list(deliveries_of(team=team, user=request.user)[:DELIVERIES_SHOWN]),
        "invitations": team.invitations.filter(status=TeamInvitation.Status.PENDING).select_related("invitee"),
    })


def _team_action(request, pk: int, action, done: str):
    """Run `action(team)` for a member; a refusal is shown as an error message on the team page."""
    team = _member_team(request, pk)
    try:
        action(team)
    except TeamError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, done)
    return redirect("leaderboard:team", pk=team.pk)


@require_POST
@login_required
def team_invite_view(request, pk: int):
    """Invite an account by user name, or an e-mail address, to the team (whether an account has verified the
    address is never told: catalog.services.team_invite)."""
    who = request.POST.get("user", "").strip()
    done = (f"{who} was invited: if an account has verified this address, it sees the invitation on its Teams page "
            "and accepts there." if "@" in who else f"{who} was invited: they accept on their Teams page.")
    return _team_action(request, pk, lambda team: team_invite(team=team, by=request.user, who=who), done)


@require_POST
@login_required
def team_rename_view(request, pk: int):
    """Rename the team."""
    name = request.POST.get("name", "")
    return _team_action(request, pk, lambda team: team_rename(team=team, user=request.user, name=name),
                        "Team renamed.")


@require_POST
@login_required
def team_leave_view(request, pk: int):
    """Leave the team (not its last member)."""
    team = _member_team(request, pk)
    try:
        team_leave(team=team, user=request.user)
    except TeamError as exc:
        messages.error(request, str(exc))
        return redirect("leaderboard:team", pk=team.pk)
    messages.success(request, f"You left {team.name}.")
    return redirect("leaderboard:teams")


@require_POST
@login_required
def invitation_answer_view(request, pk: int, answer: str):
    """Accept or decline an invitation of the user, or revoke (decline) one their team made."""
    invitation = get_object_or_404(TeamInvitation.objects.select_related("team"), pk=pk)
    try:
        invitation = invitation_answer(invitation=invitation, user=request.user, accept=answer == "accept")
    except PermissionError as exc:
        raise PermissionDenied(str(exc)) from exc
    except TeamError as exc:
        messages.error(request, str(exc))
        return redirect("leaderboard:teams")
    if invitation.status == TeamInvitation.Status.ACCEPTED:
        messages.success(request, f"You joined {invitation.team.name}: you can submit for its systems.")
        return redirect("leaderboard:team", pk=invitation.team_id)
    messages.success(request, f"The invitation to {invitation.team.name} was {invitation.status}.")
    if invitation.status == TeamInvitation.Status.REVOKED:
        return redirect("leaderboard:team", pk=invitation.team_id)
    return redirect("leaderboard:teams")


@require_POST
@login_required
def webhook_save(request, pk: int):
    """Register or update the team's webhook (URL checked by the SSRF guard; a blank secret keeps the old one)."""
    team = _member_team(request, pk)
    try:
        webhook_register(team=team, user=request.user, url=request.POST.get("url", ""),
                         secret=request.POST.get("secret", ""))
    except WebhookError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "Webhook saved: finished and failed submissions are sent to it.")
    return redirect("leaderboard:team", pk=team.pk)


@require_POST
@login_required
def webhook_delete(request, pk: int):
    """Remove the team's webhook (its delivery log stays)."""
    team = _member_team(request, pk)
    if webhook_remove(team=team, user=request.user):
        messages.success(request, "Webhook removed.")
    return redirect("leaderboard:team", pk=team.pk)
