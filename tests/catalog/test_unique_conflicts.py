"""catalog.conflicts tells the unique constraint a write broke from any other IntegrityError, on SQLite and on
PostgreSQL (one write at a time: the database refuses what no check was asked about), and a personal team whose
name another team took between the choice and the insert is named again (catalog.services.team_for_user)."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

import catalog.services
from catalog.conflicts import Unique
from catalog.models import System, Team, TeamInvitation
from catalog.services import team_for_user


def _violation(make) -> IntegrityError:
    """The IntegrityError `make()` raises, its savepoint rolled back."""
    try:
        with transaction.atomic():
            make()
    except IntegrityError as exc:
        return exc
    raise AssertionError("no IntegrityError")


@pytest.mark.django_db
def test_a_unique_violation_is_matched_to_its_constraint_only(make_user):
    alice, _ = make_user("alice")
    bob, _ = make_user("bob")
    team = team_for_user(user=alice)
    System.objects.create(team=team, name="Twin")
    skeleton = _violation(lambda: System.objects.create(team=team, name="TWIN"))  # no check: the database refuses
    assert Unique(System, ("name_skeleton",)).violated_by(skeleton)
    assert not Unique(System, ("name",)).violated_by(skeleton)
    assert not Unique(Team).violated_by(skeleton)

    TeamInvitation.objects.create(team=team, invitee=bob)
    pending = _violation(lambda: TeamInvitation.objects.create(team=team, invitee=bob))
    assert Unique.named(TeamInvitation, "invitation_one_pending").violated_by(pending)
    assert not Unique(System).violated_by(pending)

    name = _violation(lambda: User.objects.create(username="alice"))
    assert Unique(User, ("username",)).violated_by(name)
    not_null = _violation(lambda: TeamInvitation.objects.create(team=team, invitee=alice, status=None))
    assert not Unique(TeamInvitation).violated_by(not_null)


@pytest.mark.django_db
def test_a_personal_team_name_taken_before_its_insert_is_chosen_again(make_user, monkeypatch):
    make_user("alice")
    user = User.objects.create_user(username="bob")
    choose = catalog.services._personal_team_name
    chosen = iter(["alice"])  # what another sign-up stored between bob's choice and bob's insert
    monkeypatch.setattr(catalog.services, "_personal_team_name", lambda u: next(chosen, None) or choose(u))

    assert team_for_user(user=user).name == "bob"
    assert sorted(Team.objects.values_list("name", flat=True)) == ["alice", "bob"]
