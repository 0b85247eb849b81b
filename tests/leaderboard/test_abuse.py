"""Abuse found by a break-it pass on a public site (issue 13): each of these answered a 500 or let one team pass
for another on the board before its fix."""
from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from catalog.models import System
from catalog.services import system_create, team_for_user


@pytest.fixture
def owner(make_user, client):
    user, token = make_user("owner")
    client.force_login(user)
    return user, token


@pytest.mark.parametrize("csrf_checks", [False, True])
def test_an_over_limit_upload_through_the_form_gets_the_reason_not_a_500(owner, demo_split, settings, csrf_checks):
    """Refused from its Content-Length, its body never read (the test client raises when a view reads more than it
    sent), also where the CSRF check runs as in production: that check reads the form."""
    from django.test import Client

    user, _ = owner
    client = Client(enforce_csrf_checks=csrf_checks)
    client.force_login(user)
    system_create(team=team_for_user(user=user), name="Big Uploader")
    settings.SUBMISSION_MAX_UPLOAD_BYTES = 1024
    resp = client.post("/submit/", {"note": "x" * 4096}, CONTENT_LENGTH=str(10 * 1024 * 1024))
    assert resp.status_code == 400
    assert "the limit is 1024 bytes" in resp.content.decode()


def test_the_upload_form_still_needs_its_csrf_token(owner, demo_split):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(owner[0])
    system_create(team=team_for_user(user=owner[0]), name="Small Uploader")
    assert client.post("/submit/", {"note": "hi"}).status_code == 403


@pytest.mark.parametrize("lookalike", [
    "demo agent alpha",  # letter case
    "Dеmo Agent Alpha",  # Cyrillic е
    "DEMO  AGENT  ALPHA",  # spacing
    "Ｄemo Agent Alpha",  # fullwidth
    "Dem0 Agent A1pha",  # digits for letters
    "Demo Agent AIpha",  # capital i for l
])
def test_a_name_that_looks_like_another_systems_is_refused(owner, lookalike):
    team = team_for_user(user=owner[0])
    system_create(team=team, name="Demo Agent Alpha")
    with pytest.raises(ValidationError) as refused:
        system_create(team=team, name=lookalike)
    assert "already exists" in str(refused.value) and "Demo Agent Alpha" in str(refused.value)
    assert System.objects.count() == 1


@pytest.mark.parametrize("name, why", [
    ("Demo\u200b Agent Alpha", "ZERO WIDTH SPACE"),
    ("\u202eahplA tnegA omeD", "RIGHT-TO-LEFT OVERRIDE"),
    ("Agent\u2066Beta", "LEFT-TO-RIGHT ISOLATE"),
    ("Agent\x07Beta", "control character"),
    ("12", "only digits"),
    ("³", "only digits"),
])
def test_invisible_characters_and_digit_only_names_are_refused_with_the_reason(owner, name, why):
    with pytest.raises(ValidationError) as refused:
        system_create(team=team_for_user(user=owner[0]), name=name)
    assert why in str(refused.value)


def test_the_api_refuses_a_lookalike_name_with_a_400_and_the_reason(owner, client):
    _, token = owner
    auth = {"HTTP_AUTHORIZATION": f"Token {token}"}
    assert client.post("/api/v1/systems/", {"name": "Demo Agent Alpha"}, **auth).status_code == 201
    resp = client.post("/api/v1/systems/", {"name": "Dеmo Agent Alpha"}, **auth)
    assert resp.status_code == 400 and "already exists" in resp.content.decode()


@pytest.mark.parametrize("method, path", [
    ("get", "/api/v1/systems/%C2%B3/endpoint/"),
    ("post", "/api/v1/systems/%C2%B2/runs/"),
    ("get", "/api/v1/systems/%D9%A1%D9%A2/endpoint/"),  # Arabic-Indic digits
])
def test_unicode_digits_in_a_system_reference_are_a_404_not_a_500(owner, client, method, path):
    _, token = owner
    resp = getattr(client, method)(path, HTTP_AUTHORIZATION=f"Token {token}")
    assert resp.status_code == 404, resp.content


def test_an_upload_naming_its_system_with_unicode_digits_is_refused_cleanly(owner, client, demo_split, demo_zip):
    from django.core.files.uploadedfile import SimpleUploadedFile

    _, token = owner
    upload = SimpleUploadedFile("a.zip", demo_zip("agent-alpha"), content_type="application/zip")
    resp = client.post("/api/v1/submissions/", {"system": "³", "archive": upload},
                       HTTP_AUTHORIZATION=f"Token {token}")
    assert resp.status_code == 403 and "no system" in resp.content.decode()


def test_a_numeric_reference_is_the_id_and_a_name_is_the_name(owner, client):
    _, token = owner
    system = system_create(team=team_for_user(user=owner[0]), name="Agent 7")
    auth = {"HTTP_AUTHORIZATION": f"Token {token}"}
    by_id = client.get(f"/api/v1/systems/{system.pk}/endpoint/", **auth)
    by_name = client.get("/api/v1/systems/Agent%207/endpoint/", **auth)
    unknown = client.get(f"/api/v1/systems/{system.pk + 1000}/endpoint/", **auth)
    assert by_id.status_code == by_name.status_code == unknown.status_code == 404
    assert by_id.json() == by_name.json() != unknown.json()  # the same system either way: found, no endpoint yet
    assert "no system" in unknown.json()["detail"]


@pytest.mark.parametrize("method", ["TRACE", "TRACK"])
def test_trace_is_refused_everywhere(client, db, method):
    for path in ("/", "/tasks/", "/api/v1/leaderboard/", "/accounts/login/"):
        resp = client.generic(method, path)
        assert resp.status_code == 405 and "TRACE" not in resp["Allow"], (path, resp.status_code)


@pytest.mark.parametrize("path", ["/?benchmark=x%00y", "/tasks/?split=x%00y", "/matrix/?benchmark=demo%00",
                                  "/tasks/a%00b/", "/api/v1/systems/a%00b/", "/api/v1/systems/a%00b/history/",
                                  "/reported/?benchmark=%00", "/api/v1/leaderboard/?split=%00"])
def test_a_nul_character_in_an_address_or_query_is_a_400_that_says_so(client, db, path):
    """PostgreSQL text cannot hold NUL: each of these was a 500 there (the eighth break-it pass of issue 13)."""
    resp = client.get(path)
    assert resp.status_code == 400, (path, resp.status_code)
    assert "NUL character (%00)" in resp.content.decode()


def test_a_nul_character_in_a_form_or_token_request_is_a_400(owner, client):
    user, token = owner
    team = team_for_user(user=user)
    resp = client.post(f"/teams/{team.pk}/invite/", {"user": "a\x00b"})
    assert resp.status_code == 400 and "in its form" in resp.content.decode()
    resp = client.post("/api/v1/auth/token/", {"username": "owner\x00", "password": "x"})
    assert resp.status_code == 400
    resp = client.post("/api/v1/auth/token/", {"username": "owner\x00", "password": "x"},
                       content_type="application/json")
    assert resp.status_code == 400 and "Null characters are not allowed" in resp.content.decode()
    assert client.get("/tasks/?split=x%2500y").status_code != 400  # "%00" typed as text is no NUL


def test_a_lone_surrogate_in_a_token_request_is_a_400(owner, client):
    """JSON's escape for half a character reached the lockout's database query: a 500 on PostgreSQL and SQLite alike
    (the ninth break-it pass of issue 13)."""
    resp = client.post("/api/v1/auth/token/", '{"username": "a\\ud800b", "password": "x"}',
                       content_type="application/json")
    assert resp.status_code == 400, resp.content


def test_a_huge_description_is_refused_with_the_limit(owner, client):
    _, token = owner
    resp = client.post("/api/v1/systems/", {"name": "Verbose Agent", "description": "x" * 1_000_000},
                       HTTP_AUTHORIZATION=f"Token {token}")
    assert resp.status_code == 400 and "2000" in resp.content.decode()
    assert not System.objects.filter(name="Verbose Agent").exists()


def test_the_api_root_lists_its_entry_points_as_json(client, demo_split):
    """The fresh-user pass: /api/v1/ was a 404 page of HTML."""
    resp = client.get("/api/v1/")
    assert resp.status_code == 200 and resp["Content-Type"].startswith("application/json")
    links = resp.json()
    assert links["leaderboard"] == "http://testserver/api/v1/leaderboard/"
    assert links["schema"] == "http://testserver/api/v1/schema/" and links["docs"] == "http://testserver/api/docs/"
    for url in links.values():  # each one there (a 400 says which parameters a view needs)
        assert client.get(url.removeprefix("http://testserver")).status_code in (200, 400, 401, 403, 405), url


def test_a_password_change_revokes_the_api_token(owner, client):
    """A token taken with the old password stopped working only when the account was deleted (the ninth break-it pass
    of issue 13): the change page revokes it, and the new password gets a new one."""
    user, token = owner
    api = {"HTTP_AUTHORIZATION": f"Token {token}"}
    assert client.get("/api/v1/teams/", **api).status_code == 200
    resp = client.post("/accounts/password_change/", {"old_password": "pw-owner-Secure-123",
                                                      "new_password1": "An0ther-Long-Passphrase",
                                                      "new_password2": "An0ther-Long-Passphrase"})
    assert resp.status_code == 302, resp.content[:500]

    from rest_framework.test import APIClient
    assert APIClient().get("/api/v1/teams/", **api).status_code == 401
    fresh = APIClient().post("/api/v1/auth/token/", {"username": "owner", "password": "An0ther-Long-Passphrase"})
    assert fresh.status_code == 200 and fresh.json()["token"] != token


@pytest.mark.parametrize("field", ["url", "source_url"])
@pytest.mark.parametrize("char", ["\u202e", "\u200b", "\x07"], ids=["rlo", "zwsp", "bel"])
def test_a_url_with_an_invisible_or_control_character_is_refused(owner, client, field, char):
    """Both URLs are shown on the system's page and the board (the ninth break-it pass of issue 13 stored a
    right-to-left override, a zero-width space and a BEL in them)."""
    _, token = owner
    resp = client.post("/api/v1/systems/", {"name": "Linked Agent", field: f"https://evil.example/#{char}moc.buhtig"},
                       HTTP_AUTHORIZATION=f"Token {token}")
    assert resp.status_code == 400 and field in resp.json(), resp.content
