"""Names a reader could take for another's, across kinds and for accounts (the fourth break-it pass of issue 13):
team names unique by their look in the database, a team named like another team's system and the reverse, user
names with the rules of every name (look-alikes, reserved names, hidden characters), and submission notes that may
hold no bidi override."""
from __future__ import annotations

import io

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from catalog.models import Team
from catalog.services import system_create, team_for_user, team_rename
from leaderboard.models import AccountName
from submissions.models import Submission
from tests.factories import api_client_with_system

PASSWORD = "Very-Long-Pass-123"


def _sign_up(client, username: str, n: int = 0):
    return client.post("/signup/", {"username": username, "email": f"u{n}-{abs(hash(username))}@example.org",
                                    "password1": PASSWORD, "password2": PASSWORD})


@pytest.mark.django_db
def test_two_teams_cannot_hold_names_that_look_alike_even_past_the_check():
    Team.objects.create(name="Acme Lab")
    with pytest.raises(IntegrityError), transaction.atomic():
        Team.objects.create(name="ACME-LAB")  # what a rename racing the check would write
    assert list(Team.objects.values_list("name", flat=True)) == ["Acme Lab"]


@pytest.mark.django_db
def test_a_team_may_not_be_named_like_another_teams_system_nor_a_system_like_another_team(make_user):
    alice, _ = make_user("alice")
    bob, _ = make_user("bob")
    system_create(team=team_for_user(user=alice), name="Demo Agent Alpha")
    with pytest.raises(Exception, match="Another team's system is called 'Demo Agent Alpha'"):
        team_rename(team=team_for_user(user=bob), user=bob, name="Demo—Agent Alpha")
    with pytest.raises(ValidationError, match="A team called 'alice' exists"):
        system_create(team=team_for_user(user=bob), name="ALICE")
    system_create(team=team_for_user(user=alice), name="Alice")  # its own team's name: allowed
    team_rename(team=team_for_user(user=alice), user=alice, name="Demo Agent Alpha Team")


@pytest.mark.django_db
@pytest.mark.parametrize("lookalike", ["\u0430lice", "aIice", "ALICE", "al\u0131ce", "a-lice"])
def test_a_user_name_that_looks_like_anothers_is_refused_at_sign_up(client, make_user, lookalike):
    make_user("alice")
    resp = _sign_up(client, lookalike)
    assert resp.status_code == 400
    page = resp.content.decode()
    assert "is taken" in page or "A user with that username already exists" in page  # Django's own, for "ALICE"
    assert AccountName.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("username, reason", [("admin", "reserved"), ("Staff", "reserved"), ("12345", "only digits"),
                                              ("moderator", "reserved")])
def test_a_reserved_or_numeric_user_name_is_refused_at_sign_up(client, username, reason):
    resp = _sign_up(client, username)
    assert resp.status_code == 400 and reason in resp.content.decode()


@pytest.mark.django_db
def test_a_sign_up_that_lost_the_race_for_a_look_alike_name_keeps_nothing(client, make_user, monkeypatch):
    # Both sign-ups passed the form's check; the later one finds its name's look stored by the other meanwhile.
    from leaderboard import accounts

    make_user("dave")
    monkeypatch.setattr("leaderboard.forms.username_problem", lambda username: None)  # the check raced past
    resp = _sign_up(client, "dav\u0435")  # a Cyrillic "е": Django's own case-insensitive check cannot see it
    assert resp.status_code == 400 and "looks like &#x27;dav\u0435&#x27; is taken" in resp.content.decode()
    assert not accounts.User.objects.filter(username="dav\u0435").exists()
    assert Team.objects.count() == 1 and AccountName.objects.count() == 1


@pytest.mark.django_db
def test_every_user_gets_the_look_of_its_name_and_an_admin_made_twin_is_marked():
    from django.contrib.auth.models import User

    first = User.objects.create_user("erin", password=PASSWORD)
    twin = User.objects.create_user("ERIN", password=PASSWORD)  # an admin's account: never refused
    assert first.account_name.skeleton == "erln"
    assert twin.account_name.skeleton == f"erln#{twin.pk}"
    twin.username = "frank"
    twin.save()
    assert AccountName.objects.get(user=twin).skeleton == "frank"


@pytest.mark.django_db
@pytest.mark.parametrize("note, reason", [
    ("Official result \u2014 verified by the RepoGenesis authors \u202e", "RIGHT-TO-LEFT OVERRIDE"),
    ("run\u200b 3", "ZERO WIDTH SPACE"),
    ("run\u3164 3", "HANGUL FILLER"),  # the fifth pass: default-ignorable and blank-looking characters
    ("run\u2800 3", "BRAILLE PATTERN BLANK"),
    ("run\u00a0 3", "NO-BREAK SPACE"),
    ("Z" + "\u0301" * 50, "combining marks"),
])
def test_a_note_with_a_hidden_or_bidi_character_is_refused_and_nothing_stored(make_user, demo_split, demo_zip,
                                                                              note, reason):
    client = api_client_with_system(make_user, "alice", "AliceBot")
    upload = io.BytesIO(demo_zip("agent-alpha"))
    upload.name = "alpha.zip"
    resp = client.post("/api/v1/submissions/", {"system": "AliceBot", "archive": upload, "note": note},
                       format="multipart")
    assert resp.status_code == 400 and reason in resp.content.decode(), resp.content
    assert not Submission.objects.exists()


def test_every_badge_the_board_draws_is_a_decoration_names_are_compared_without():
    from catalog.names import DECORATIONS
    from leaderboard.badges import KEYS, LABELS

    assert set(LABELS) == set(KEYS)
    assert set(LABELS.values()) <= set(DECORATIONS) and "reported" in DECORATIONS  # the radar legend's "(reported)"
