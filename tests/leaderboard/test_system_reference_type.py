"""The `reference` type is the benchmark's own reference solutions, shown as the oracle row apart from the
competition: only staff may create a system of that type or switch one to it (web form and API), everyone else gets
a 400 saying why, and existing reference systems keep their type."""
from __future__ import annotations

from catalog.models import System
from catalog.services import system_create, team_for_user

STAFF_ONLY = "Only the site's staff can enter a system of type"


def test_the_api_refuses_a_reference_system_from_a_user(signed_in, client):
    _, auth = signed_in("alice")
    resp = client.post("/api/v1/systems/", {"name": "Perfect Agent", "type": "reference"}, **auth)
    assert resp.status_code == 400, resp.content
    assert STAFF_ONLY in resp.json()["type"][0]
    assert not System.objects.filter(name="Perfect Agent").exists()


def test_the_api_refuses_switching_a_users_system_to_reference(signed_in, client):
    user, auth = signed_in("alice")
    system = system_create(team=team_for_user(user=user), name="Plain Agent")
    resp = client.patch(f"/api/v1/systems/{system.pk}/", {"type": "reference"}, content_type="application/json",
                        **auth)
    assert resp.status_code == 400 and STAFF_ONLY in resp.json()["type"][0]
    system.refresh_from_db()
    assert system.type == "agent"


def test_staff_may_create_and_switch_to_reference(make_user, client):
    admin, token = make_user("admin")
    admin.is_staff = True
    admin.save()
    auth = {"HTTP_AUTHORIZATION": f"Token {token}"}
    # (not "Reference solutions": reserved for the platform's own teams, test_reserved_names; nor "Staff Oracle": read
    # without its badge word, it is the reserved "staff")
    resp = client.post("/api/v1/systems/", {"name": "House Baseline", "type": "reference"}, **auth)
    assert resp.status_code == 201 and resp.json()["type"] == "reference"
    other = system_create(team=team_for_user(user=admin), name="Second Oracle")
    resp = client.patch(f"/api/v1/systems/{other.pk}/", {"type": "reference"}, content_type="application/json",
                        **auth)
    assert resp.status_code == 200 and resp.json()["type"] == "reference"


def test_the_web_form_neither_offers_nor_accepts_reference_for_a_user(signed_in, client):
    signed_in("alice")
    page = client.get("/systems/new/").content.decode()
    assert 'value="agent"' in page and 'value="reference"' not in page
    resp = client.post("/systems/new/", {"name": "Perfect Agent", "type": "reference"})
    assert resp.status_code == 400 and STAFF_ONLY in resp.content.decode().replace("&#x27;", "'")
    assert not System.objects.filter(name="Perfect Agent").exists()


def test_the_web_edit_form_refuses_switching_to_reference(signed_in, client):
    user, _ = signed_in("alice")
    system = system_create(team=team_for_user(user=user), name="Plain Agent")
    resp = client.post(f"/systems/{system.pk}/edit/", {"name": "Plain Agent", "type": "reference"})
    assert resp.status_code == 400 and STAFF_ONLY in resp.content.decode().replace("&#x27;", "'")
    system.refresh_from_db()
    assert system.type == "agent"


def test_an_existing_reference_system_keeps_its_type_when_its_team_edits_it(signed_in, client):
    user, auth = signed_in("alice")
    system = system_create(team=team_for_user(user=user), name="Seeded Oracle", type="reference")  # made by a seed
    assert 'value="reference"' in client.get(f"/systems/{system.pk}/edit/").content.decode()
    resp = client.post(f"/systems/{system.pk}/edit/", {"name": "Seeded Oracle", "type": "reference",
                                                       "description": "hand-written"})
    assert resp.status_code == 302, resp.content
    resp = client.patch(f"/api/v1/systems/{system.pk}/", {"type": "reference", "url": "https://example.org/"},
                        content_type="application/json", **auth)
    assert resp.status_code == 200
    system.refresh_from_db()
    assert (system.type, system.description, system.url) == ("reference", "hand-written", "https://example.org/")
