"""Every text a system shows on the board is refused when it holds a bidi control or another invisible format
character (they reorder or hide the board's text), with a message naming the character, through the API, the web
form and the service; catalog.names owns the rule for names, these texts and published-results files alike. A
description is at most 2000 characters at the model level too. Texts stored before the rule are kept."""
from __future__ import annotations

import html

import pytest
from django.core.exceptions import ValidationError

from catalog.models import DESCRIPTION_MAX_LENGTH, System
from catalog.reported_files import ReportedFormatError, read_reported
from catalog.services import system_create, team_for_user
from tests.leaderboard.test_reported import write_source

INVISIBLE = [
    ("\u202a", "LEFT-TO-RIGHT EMBEDDING"), ("\u202b", "RIGHT-TO-LEFT EMBEDDING"),
    ("\u202c", "POP DIRECTIONAL FORMATTING"), ("\u202d", "LEFT-TO-RIGHT OVERRIDE"),
    ("\u202e", "RIGHT-TO-LEFT OVERRIDE"), ("\u2066", "LEFT-TO-RIGHT ISOLATE"), ("\u2067", "RIGHT-TO-LEFT ISOLATE"),
    ("\u2068", "FIRST STRONG ISOLATE"), ("\u2069", "POP DIRECTIONAL ISOLATE"), ("\u200e", "LEFT-TO-RIGHT MARK"),
    ("\u200f", "RIGHT-TO-LEFT MARK"), ("\u061c", "ARABIC LETTER MARK"), ("\u200b", "ZERO WIDTH SPACE"),
    ("\u2060", "WORD JOINER"), ("\u00ad", "SOFT HYPHEN"), ("\u2028", "LINE SEPARATOR"),
]
FIELDS = {"base_model": "The base model", "agent_framework": "The agent framework",
          "description": "The description"}


@pytest.fixture
def owner(make_user, client):
    user, token = make_user("owner")
    client.force_login(user)
    return user, {"HTTP_AUTHORIZATION": f"Token {token}"}


@pytest.mark.parametrize("char, label", INVISIBLE)
@pytest.mark.parametrize("field", FIELDS)
def test_the_api_refuses_an_invisible_character_in_a_shown_text(owner, client, field, char, label):
    _, auth = owner
    resp = client.post("/api/v1/systems/", {"name": "Bidi Agent", field: f"gpt{char}-5 mini"}, **auth)
    assert resp.status_code == 400, resp.content
    message = resp.json()[field][0]
    assert message.startswith(f"{FIELDS[field]} holds an invisible, blank-looking or control character, or a space other than a plain one ({label}, "
                              f"U+{ord(char):04X})")
    assert not System.objects.filter(name="Bidi Agent").exists()


def test_the_web_form_refuses_a_bidi_override_in_the_base_model(owner, client):
    resp = client.post("/systems/new/", {"name": "Bidi Agent", "type": "agent", "base_model": "\u202eledom"})
    assert resp.status_code == 400
    assert "The base model holds an invisible, blank-looking or control character, or a space other than a plain one (RIGHT-TO-LEFT OVERRIDE, U+202E)" in \
        html.unescape(resp.content.decode())
    assert not System.objects.filter(name="Bidi Agent").exists()


def test_an_edit_cannot_add_an_isolate_to_the_framework(owner, client):
    user, auth = owner
    system = system_create(team=team_for_user(user=user), name="Plain Agent", agent_framework="OpenHands")
    resp = client.patch(f"/api/v1/systems/{system.pk}/", {"agent_framework": "Open\u2067Hands"},
                        content_type="application/json", **auth)
    assert resp.status_code == 400 and "RIGHT-TO-LEFT ISOLATE" in resp.json()["agent_framework"][0]
    system.refresh_from_db()
    assert system.agent_framework == "OpenHands"


def test_a_description_keeps_its_line_breaks_and_tabs(owner):
    system = system_create(team=team_for_user(user=owner[0]), name="Multi Line",
                           description="First line.\r\n\tSecond line.\nThird.")
    assert system.description.count("\n") == 2


def test_a_description_over_the_limit_is_refused_by_the_model_itself(owner):
    with pytest.raises(ValidationError) as refused:
        system_create(team=team_for_user(user=owner[0]), name="Verbose", description="x" * (DESCRIPTION_MAX_LENGTH + 1))
    assert f"at most {DESCRIPTION_MAX_LENGTH}" in refused.value.message_dict["description"][0]


def test_texts_stored_before_the_rule_are_kept_on_an_unrelated_edit(owner, client):
    user, auth = owner
    system = system_create(team=team_for_user(user=user), name="Old Agent")
    System.objects.filter(pk=system.pk).update(base_model="old\u200bmodel")  # stored before the rule
    resp = client.patch(f"/api/v1/systems/{system.pk}/", {"url": "https://example.org/"},
                        content_type="application/json", **auth)
    assert resp.status_code == 200, resp.content
    system.refresh_from_db()
    assert system.base_model == "old\u200bmodel" and system.url == "https://example.org/"


def test_published_results_files_follow_the_same_rule(tmp_path):
    with pytest.raises(ReportedFormatError, match="r.csv line 3: holds the control character U\\+202E"):
        read_reported(write_source(tmp_path, ["Bot,\u202eM,agent,1.00,0.00,0.00,0.00,0.00,0.00"]))
