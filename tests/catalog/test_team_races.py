"""Teams under simultaneous requests (the sixth break-it pass of issue 13): a user's first two requests at once make
one personal team, not two; a team never grows past TEAM_MAX_MEMBERS when two accounts are invited, or accept, at
the same moment; a personal team made at the moment another team creates a look-alike system is not named like it.

Real threads, each with its own database connection (tests.conftest.race), on the database of the run (SQLite or
PostgreSQL). Each racing request is held after its check until the other has passed its own, or for at most a
moment when the fixed code makes the other wait for a lock first (`_held_softly`)."""
from __future__ import annotations

import threading

import pytest
from django.contrib.auth.models import User
from django.db.models import QuerySet
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

import catalog.services
from catalog.models import System, Team, TeamInvitation
from catalog.names import name_skeleton
from catalog.services import team_for_user, team_invite
from tests.conftest import meet_after, race


def _api(user: User) -> APIClient:
    """An API client of `user` that answers a view's unhandled exception with its 500."""
    api = APIClient(raise_request_exception=False)
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return api


def _held_softly(monkeypatch, owner, name: str, parties: int, *, when=lambda *a, **k: True,
                 wait: float = 3.0) -> None:
    """Patch `owner.name` so that the first `parties` calls for which `when(*args, **kwargs)` holds each return only
    once all of them have returned, or after `wait` seconds: the racing requests meet after their checks when
    nothing serialises them, and a request holding a lock the other waits for goes on after `wait`."""
    original = getattr(owner, name)
    barrier = threading.Barrier(parties)
    counted = iter(range(parties))

    def wrapped(*args, **kwargs):
        result = original(*args, **kwargs)
        if when(*args, **kwargs) and next(counted, None) is not None:
            try:
                barrier.wait(timeout=wait)
            except threading.BrokenBarrierError:
                pass
        return result

    monkeypatch.setattr(owner, name, wrapped)


@pytest.mark.django_db(transaction=True)
def test_a_users_first_two_requests_at_once_make_one_personal_team(monkeypatch):
    # The fourth and fifth passes left it: both requests found no team and both made one ("dora" and "dora-2").
    user = User.objects.create_user(username="dora", password="pw-dora-Secure-123")  # an account with no team yet
    meet_after(monkeypatch, QuerySet, "first", 2, when=lambda qs: qs.model is Team)

    results = race(*(lambda name=name: _api(user).post("/api/v1/systems/", {"name": name}, format="json")
                     for name in ("Solo One", "Solo Two")))

    assert sorted(r.status_code for r in results) == [201, 201], results
    assert list(Team.objects.values_list("name", flat=True)) == ["dora"]
    assert set(System.objects.values_list("team__name", flat=True)) == {"dora"}


@pytest.mark.django_db(transaction=True)
def test_two_accounts_invited_at_once_to_the_last_place_the_team_stays_within_its_limit(make_user, settings,
                                                                                        monkeypatch):
    settings.TEAM_MAX_MEMBERS = 2
    alice, _ = make_user("alice")
    bob, _ = make_user("bob")
    carol, _ = make_user("carol")
    team = Team.objects.get(name="alice")
    _held_softly(monkeypatch, QuerySet, "count", 2, when=lambda qs: qs.model is TeamInvitation)

    results = race(*(lambda who=who: _api(alice).post(f"/api/v1/teams/{team.pk}/invitations/", {"user": who})
                     for who in ("bob", "carol")))

    assert sorted(r.status_code for r in results) == [201, 400], results
    [refused] = [r for r in results if r.status_code == 400]
    assert refused.json() == {"detail": "A team has at most 2 members, pending invitations included."}
    pending = list(team.invitations.filter(status=TeamInvitation.Status.PENDING))
    assert len(pending) == 1
    for invitation in pending:
        assert _api(invitation.invitee).post(f"/api/v1/invitations/{invitation.pk}/accept/").status_code == 200
    assert team.members.count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_accounts_accepting_at_once_past_the_limit_one_is_refused(make_user, settings, monkeypatch):
    # Invitations made while the limit was higher (or before it counted pending ones): accepting is where a team
    # grows, so the limit is held there, under the team's lock, as well.
    alice, _ = make_user("alice")
    people = [make_user(name)[0] for name in ("bob", "carol")]
    team = Team.objects.get(name="alice")
    invitations = [team_invite(team=team, by=alice, who=user.username) for user in people]
    settings.TEAM_MAX_MEMBERS = 2
    _held_softly(monkeypatch, QuerySet, "update", 2, when=lambda qs, **kwargs: qs.model is TeamInvitation)

    results = race(*(lambda user=user, invitation=invitation: _api(user).post(
        f"/api/v1/invitations/{invitation.pk}/accept/") for user, invitation in zip(people, invitations)))

    assert sorted(r.status_code for r in results) == [200, 400], results
    [refused] = [r for r in results if r.status_code == 400]
    assert refused.json() == {"detail": "alice is full: a team has at most 2 members. Ask a member to make room, "
                                        "then accept again."}
    assert team.members.count() == 2
    assert TeamInvitation.objects.filter(status=TeamInvitation.Status.PENDING).count() == 1  # kept for later


@pytest.mark.django_db(transaction=True)
def test_a_personal_team_made_as_another_team_creates_a_lookalike_system_is_named_apart(make_user, monkeypatch):
    # The personal team's name was chosen from the names stored before and stored with no second look at the
    # systems: a system "ERIN" created between the choice and the write, and the team "erin", both on the board.
    _, token = make_user("alice")
    erin = User.objects.create_user(username="erin", password="pw-erin-Secure-123")  # no team yet
    named, system_done = threading.Event(), threading.Event()
    original = catalog.services._personal_team_name

    def chosen_then_held(user):
        name = original(user)
        named.set()
        system_done.wait(timeout=5)  # the system is created meanwhile (or waits for this team's lock)
        return name

    monkeypatch.setattr(catalog.services, "_personal_team_name", chosen_then_held)
    alice = APIClient(raise_request_exception=False)
    alice.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    def create_system():
        named.wait(timeout=5)
        try:
            return alice.post("/api/v1/systems/", {"name": "ERIN"}, format="json")
        finally:
            system_done.set()

    team, answer = race(lambda: team_for_user(user=erin), create_system)

    assert isinstance(team, Team), team
    if answer.status_code == 201:
        assert name_skeleton(team.name) != name_skeleton("ERIN"), team.name
    else:
        assert answer.status_code == 400 and team.name == "erin", answer.content


@pytest.mark.django_db(transaction=True)
def test_the_two_members_of_a_team_leaving_at_once_one_stays(make_user, monkeypatch):
    # The eighth break-it pass: both leaves counted two members and both left; the team, its systems and
    # submissions belonged to nobody.
    alice, _ = make_user("alice")
    bob, _ = make_user("bob")
    team = Team.objects.get(name="alice")
    team.members.add(bob)
    _held_softly(monkeypatch, QuerySet, "count", 2, when=lambda qs: qs.model is User)

    results = race(*(lambda user=user: _api(user).post(f"/api/v1/teams/{team.pk}/leave/") for user in (alice, bob)))

    assert sorted(r.status_code for r in results) == [204, 400], results
    [refused] = [r for r in results if r.status_code == 400]
    assert "last member" in refused.json()["detail"]
    assert team.members.count() == 1
