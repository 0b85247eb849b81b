"""/compare/?a=2&b=3 and /api/v1/compare/ take a system's id (ASCII digits) as well as its exact name, like every
other system reference of the site (catalog.selectors.system_by_ref); the same system named twice, by id and by
name, is a clear 400."""
from __future__ import annotations

import html

import pytest

from tests.factories import finished_submission

STRONG = {"TodoList": (17, "passed", 1), "Notes": (15, "passed", 1)}
WEAK = {"TodoList": (3, "tests_failed", 1)}


@pytest.fixture
def pair(demo_split):
    strong = finished_submission(split=demo_split, system_name="Strong Agent", scores=STRONG).system
    weak = finished_submission(split=demo_split, system_name="Weak Agent", scores=WEAK).system
    return strong, weak


def test_the_compare_page_resolves_numeric_ids(client, pair):
    strong, weak = pair
    resp = client.get(f"/compare/?a={strong.pk}&b={weak.pk}")
    assert resp.status_code == 200, resp.content
    page = html.unescape(resp.content.decode())
    assert "Strong Agent</a> (A) vs" in page and "Weak Agent</a> (B)" in page
    assert '<option value="Strong Agent" selected>' in page  # the pickers show the systems compared


def test_the_api_resolves_ids_and_names_alike(client, pair):
    strong, weak = pair
    by_id = client.get(f"/api/v1/compare/?a={strong.pk}&b={weak.pk}")
    mixed = client.get(f"/api/v1/compare/?a={strong.pk}&b=Weak%20Agent")
    by_name = client.get("/api/v1/compare/?a=Strong%20Agent&b=Weak%20Agent")
    assert by_id.status_code == mixed.status_code == by_name.status_code == 200
    assert by_id.json() == mixed.json() == by_name.json()
    assert (by_id.json()["a"]["system_id"], by_id.json()["b"]["system_id"]) == (strong.pk, weak.pk)


def test_one_system_by_id_and_by_name_is_a_clear_400(client, pair):
    strong, _ = pair
    resp = client.get(f"/api/v1/compare/?a={strong.pk}&b=Strong%20Agent")
    assert resp.status_code == 400 and "are the same system (Strong Agent)" in resp.json()["detail"]
    page = client.get(f"/compare/?a={strong.pk}&b=Strong%20Agent")
    assert page.status_code == 400 and "are the same system" in html.unescape(page.content.decode())


def test_an_unknown_id_is_named_in_the_answer(client, pair):
    strong, weak = pair
    resp = client.get(f"/api/v1/compare/?a={strong.pk}&b={weak.pk + 1000}")
    assert resp.status_code == 404 and resp.json()["detail"] == f"no system with id {weak.pk + 1000}"
