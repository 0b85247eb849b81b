"""The system form says one clear message per problem (a fresh user pass read "This field is required.Give the
system a name." for an empty name and "Ensure this value has at most 100 characters (it has 101).Give the system a
name." for a long one)."""
from __future__ import annotations

import re

import pytest


def _name_errors(page: str) -> list[str]:
    """The messages listed under the name field."""
    found = re.search(r'<ul class="errorlist" id="id_name_error">(.*?)</ul>', page, re.S)
    return re.findall(r"<li>(.*?)</li>", found.group(1)) if found else []


@pytest.mark.parametrize("name, expected", [
    ("", "Give the system a name."),
    ("   ", "Give the system a name."),
    ("x" * 101, "A name has at most 100 characters; this one has 101."),
])
def test_one_message_per_name_problem(client, make_user, name, expected):
    user, _ = make_user("formy")
    client.force_login(user)
    resp = client.post("/systems/new/", {"name": name, "type": "agent"})
    assert resp.status_code == 400
    assert resp.context["form"].errors["name"] == [expected]
    assert _name_errors(resp.content.decode()) == [expected]


def test_a_name_problem_the_model_finds_is_still_said_once(client, make_user):
    user, _ = make_user("formz")
    client.force_login(user)
    resp = client.post("/systems/new/", {"name": "12345", "type": "agent"})
    assert resp.status_code == 400 and len(resp.context["form"].errors["name"]) == 1
    assert "only digits" in resp.context["form"].errors["name"][0]
