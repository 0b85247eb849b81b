"""A system name holding "/" could not be reached at its API address (/api/v1/systems/<name>/ answered 404, "/"
splitting the path even when written %2F): new names and renames are refused with the reason, through the API
and the web form; a system that has such a name already keeps it, and its pages by id still work."""
from __future__ import annotations

import html

from catalog.models import System
from catalog.services import system_create, team_for_user

SLASH = 'A system name cannot hold "/"'


def test_the_api_refuses_a_name_with_a_slash(signed_in, client):
    _, auth = signed_in("slasher")
    resp = client.post("/api/v1/systems/", {"name": "OpenHands/GPT-5"}, **auth)
    assert resp.status_code == 400 and SLASH in resp.json()["name"][0]
    assert "/api/v1/systems/<name>/" in resp.json()["name"][0]
    assert not System.objects.exists()


def test_the_web_form_refuses_it_and_a_rename_to_it(signed_in, client):
    user, auth = signed_in("slasher")
    resp = client.post("/systems/new/", {"name": "OpenHands/GPT-5", "type": "agent"})
    assert resp.status_code == 400 and SLASH in html.unescape(resp.content.decode())
    system = system_create(team=team_for_user(user=user), name="OpenHands GPT-5")
    resp = client.patch(f"/api/v1/systems/{system.pk}/", {"name": "OpenHands/GPT-5"}, content_type="application/json",
                        **auth)
    assert resp.status_code == 400 and SLASH in resp.json()["name"][0]
    system.refresh_from_db()
    assert system.name == "OpenHands GPT-5"


def test_a_system_named_with_a_slash_before_the_rule_keeps_working(signed_in, client):
    user, auth = signed_in("slasher")
    system = System.objects.create(team=team_for_user(user=user), name="Old/Agent")  # stored before the rule
    assert client.get(f"/systems/{system.pk}/").status_code == 200
    assert client.get(f"/api/v1/systems/{system.pk}/", **auth).json()["name"] == "Old/Agent"
    resp = client.patch(f"/api/v1/systems/{system.pk}/", {"description": "still editable"},
                        content_type="application/json", **auth)
    assert resp.status_code == 200 and resp.json()["name"] == "Old/Agent"
