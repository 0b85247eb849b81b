"""A personal team made at sign-up passes the same look-alike rule as any team name (it is named after the user,
and "DEMO" or "dеmo" with a Cyrillic е would look like the team "demo"): a taken look-alike gets a distinct name
and the user is told. The names of the systems the benchmark's authors reported, and the platform's own system and
team names, are reserved (by skeleton) for systems and teams alike (catalog.models.reserved_name_problem)."""
from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from catalog.models import ReportedResult, System, Team
from catalog.names import name_skeleton
from catalog.services import TeamError, system_create, team_for_user, team_rename


pytestmark = pytest.mark.usefixtures("fresh_rates")  # the sign-up, e-mail and token rates start empty


def _sign_up(client, username: str):
    return client.post("/signup/", {"username": username, "email": f"{username.encode().hex()}@example.org",
                                    "password1": "Very-Long-Pass-123", "password2": "Very-Long-Pass-123"},
                       follow=True)


@pytest.mark.parametrize("username", ["ACME", "\u0430cme", "Acrne"])
def test_a_sign_up_whose_name_looks_like_a_team_gets_a_distinct_team_and_is_told(client, db, username):
    # (not "demo": since the fourth break-it pass a user name may not be a reserved name, test_name_owners)
    Team.objects.create(name="acme-team-owner")
    Team.objects.create(name="Acrne-2")
    existing = Team.objects.create(name="acme")
    resp = _sign_up(client, username)
    assert resp.status_code == 200
    user = User.objects.get(username=username)
    team = user.teams.get()
    assert team.pk != existing.pk
    skeletons = [name_skeleton(t.name) for t in Team.objects.all()]
    assert len(skeletons) == len(set(skeletons)), [t.name for t in Team.objects.all()]
    assert f"Your team is called {team.name}" in resp.content.decode().replace("&#x27;", "'")


def test_a_username_with_a_hidden_character_gets_a_clean_team_name(db):
    user = User.objects.create_user(username="demo\u3164", password="Very-Long-Pass-123")
    team = team_for_user(user=user)
    assert "\u3164" not in team.name and team.name.startswith("team-")


def test_a_sign_up_named_after_the_platforms_team_is_refused(client, db):
    platform = Team.objects.create(name="platform")
    for username in ("platform", "PLATF0RM"):
        resp = _sign_up(client, username)
        assert resp.status_code == 400 and "is reserved" in resp.content.decode(), username
    assert not User.objects.filter(username__iexact="platform").exists()
    assert list(platform.members.all()) == []


@pytest.fixture
def reported(db):
    for system in ("Cursor", "Copilot"):
        ReportedResult.objects.create(benchmark_name="repogenesis", split_name="verified", system=system,
                                      base_model="GPT-5", source="the authors", source_date=datetime.date(2026, 2, 1))


@pytest.mark.parametrize("name", ["Cursor", "CURS0R", "Copilot", "Reference solutions (oracle)",
                                  "Reference solutions", "RepoGenesis Verified reference solutions", "platform",
                                  "RepoGenesis"])
def test_reserved_system_names_are_refused_with_the_reason(make_user, client, reported, name):
    user, token = make_user("owner")
    resp = client.post("/api/v1/systems/", {"name": name}, HTTP_AUTHORIZATION=f"Token {token}")
    assert resp.status_code == 400, resp.content
    assert "reserved" in resp.json()["name"][0]
    assert not System.objects.filter(name=name).exists()
    client.force_login(user)
    resp = client.post("/systems/new/", {"name": name, "type": "agent"})
    assert resp.status_code == 400 and "reserved" in resp.content.decode()


@pytest.mark.parametrize("name", ["repogenesis", "Platform", "Cursor", "dem0"])
def test_reserved_team_names_are_refused(make_user, client, reported, name):
    user, token = make_user("owner")
    team = team_for_user(user=user)
    resp = client.patch(f"/api/v1/teams/{team.pk}/", {"name": name}, content_type="application/json",
                        HTTP_AUTHORIZATION=f"Token {token}")
    assert resp.status_code == 400 and "reserved" in resp.content.decode(), resp.content
    with pytest.raises(TeamError):
        team_rename(team=team, user=user, name=name)


def test_the_platforms_own_teams_may_hold_the_reserved_names(db, reported):
    platform = Team.objects.create(name="platform")
    demo = Team.objects.create(name="demo")
    assert system_create(team=platform, name="RepoGenesis Verified reference solutions", type="reference").pk
    assert system_create(team=demo, name="Reference solutions", type="reference").pk


def test_a_reserved_name_kept_from_before_may_be_edited(make_user, reported):
    user, _ = make_user("owner")
    system = System(team=team_for_user(user=user), name="Cursor")
    system.save()  # stored before the rule
    system.description = "still here"
    system.full_clean()
    with pytest.raises(ValidationError):
        System(team=system.team, name="Copilot").full_clean()
