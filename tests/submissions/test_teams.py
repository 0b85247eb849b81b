"""Teams with members (issue 13 "Lifecycle"): a member invites by user name or e-mail address, the invitee
accepts, then submits for the team's systems under the team's one quota; nobody else can."""
from __future__ import annotations

import pytest
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from catalog.models import TeamInvitation
from catalog.services import system_create, team_for_user


@pytest.fixture
def people(make_user):
    """{name: (user, api client)} for alice (owns a system), bob and mallory."""
    made = {}
    for name in ("alice", "bob", "mallory"):
        user, token = make_user(name)
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        made[name] = (user, api)
    system_create(team=team_for_user(user=made["alice"][0]), name="Shared Agent")
    return made


def _upload(api, demo_zip, system="Shared Agent"):
    return api.post("/api/v1/submissions/", {"system": system, "archive": SimpleUploadedFile(
        "alpha.zip", demo_zip("agent-alpha"), content_type="application/zip")})


@pytest.fixture
def private_dirs(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.EVALUATION_WORK_ROOT = tmp_path / "work"


def test_an_invited_member_submits_for_the_team_under_its_quota(people, demo_split, demo_zip, private_dirs,
                                                                 settings):
    alice, bob = people["alice"], people["bob"]
    team = team_for_user(user=alice[0])
    settings.SUBMISSION_DAILY_QUOTA = 2
    assert _upload(bob[1], demo_zip).status_code == 403  # not a member yet

    invited = alice[1].post(f"/api/v1/teams/{team.pk}/invitations/", {"user": "bob"})
    assert invited.status_code == 201, invited.content
    [waiting] = bob[1].get("/api/v1/invitations/").json()["results"]
    assert (waiting["team"], waiting["invited_by"]) == ("alice", "alice")
    accepted = bob[1].post(f"/api/v1/invitations/{waiting['id']}/accept/")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"

    assert _upload(alice[1], demo_zip).status_code == 201
    assert _upload(bob[1], demo_zip).status_code == 201  # bob submits for the team's system
    third = _upload(bob[1], demo_zip)
    assert third.status_code == 429 and third.json()["quota"]["used"] == 2  # one quota for the team
    assert bob[1].get(f"/api/v1/teams/{team.pk}/").json()["members"] == ["alice", "bob"]


def test_an_invitation_by_verified_address_reaches_the_account(people):
    alice, bob = people["alice"], people["bob"]
    bob[0].email = "bob@example.org"  # User.email holds verified addresses only
    bob[0].save()
    team = team_for_user(user=alice[0])

    resp = alice[1].post(f"/api/v1/teams/{team.pk}/invitations/", {"user": "BOB@example.org"})

    assert resp.status_code == 201
    [message] = mail.outbox
    assert message.to == ["bob@example.org"] and "alice invites you to the team alice" in message.subject


def test_an_invitation_by_address_does_not_tell_the_team_whose_account_it_is(people, client):
    """Until bob accepts, alice's team sees the address she typed, never bob's user name: an address she knows must
    not tell her whose account it is (the eleventh break-it pass of issue 13 read user names off addresses)."""
    alice, bob = people["alice"], people["bob"]
    bob[0].email = "bob@example.org"
    bob[0].save()
    team = team_for_user(user=alice[0])

    made = alice[1].post(f"/api/v1/teams/{team.pk}/invitations/", {"user": "BOB@example.org"}).json()
    again = alice[1].post(f"/api/v1/teams/{team.pk}/invitations/", {"user": "bob@Example.org"}).json()
    client.force_login(alice[0])
    page = client.get(f"/teams/{team.pk}/").content.decode()
    listed = alice[1].get(f"/api/v1/teams/{team.pk}/invitations/").json()["results"]

    assert made["invitee"] == "bob@example.org" and [i["invitee"] for i in listed] == ["bob@example.org"]
    assert again["detail"] == "bob@example.org already has a pending invitation to alice."
    pending = page[page.index('id="pending"'):]
    pending = pending[:pending.index("</ul>")]
    assert "bob@example.org" in pending and "bob (since" not in pending
    assert bob[1].post(f"/api/v1/invitations/{made['id']}/accept/").status_code == 200
    assert alice[1].get(f"/api/v1/teams/{team.pk}/").json()["members"] == ["alice", "bob"]  # a member by name


@pytest.mark.parametrize("who, why", [
    ("nobody", "No account is named 'nobody'"),
    ("ghost@", "'ghost@' is not an e-mail address"),
    ("a b@example.org", "is not an e-mail address"),
    ("alice", "already a member"),
])
def test_a_bad_invitation_says_why(people, who, why):
    alice = people["alice"]
    team = team_for_user(user=alice[0])
    resp = alice[1].post(f"/api/v1/teams/{team.pk}/invitations/", {"user": who})
    assert resp.status_code == 400 and why in resp.json()["detail"]
    assert not TeamInvitation.objects.exists()


EMPTY_NAME = "Give the user name or verified e-mail address of the account to invite."


@pytest.mark.parametrize("body", [{"user": ""}, {"user": "   "}, {}], ids=["empty", "blank", "absent"])
def test_an_invitation_without_a_name_says_what_to_give_in_the_api(people, body):
    alice = people["alice"]
    team = team_for_user(user=alice[0])
    resp = alice[1].post(f"/api/v1/teams/{team.pk}/invitations/", body, format="json")
    assert (resp.status_code, resp.json()["detail"]) == (400, EMPTY_NAME)
    assert not TeamInvitation.objects.exists()


def test_an_invitation_without_a_name_says_what_to_give_on_the_page(people, client):
    alice = people["alice"]
    team = team_for_user(user=alice[0])
    client.force_login(alice[0])
    page = client.post(f"/teams/{team.pk}/invite/", {"user": "  "}, follow=True).content.decode()
    assert EMPTY_NAME in page and "No account is named" not in page
    assert not TeamInvitation.objects.exists()


def test_only_members_invite_and_only_the_invitee_accepts(people):
    alice, bob, mallory = people["alice"], people["bob"], people["mallory"]
    team = team_for_user(user=alice[0])
    assert mallory[1].post(f"/api/v1/teams/{team.pk}/invitations/", {"user": "mallory"}).status_code == 403
    invitation = alice[1].post(f"/api/v1/teams/{team.pk}/invitations/", {"user": "bob"}).json()

    assert mallory[1].post(f"/api/v1/invitations/{invitation['id']}/accept/").status_code == 403
    assert not team.members.filter(username="mallory").exists()
    again = alice[1].post(f"/api/v1/teams/{team.pk}/invitations/", {"user": "bob"})
    assert again.status_code == 400 and "pending invitation" in again.json()["detail"]

    assert bob[1].post(f"/api/v1/invitations/{invitation['id']}/decline/").json()["status"] == "declined"
    late = bob[1].post(f"/api/v1/invitations/{invitation['id']}/accept/")
    assert late.status_code == 400 and "already declined" in late.json()["detail"]
    assert not team.members.filter(username="bob").exists()


def test_a_member_revokes_an_invitation_and_the_last_member_cannot_leave(people):
    alice = people["alice"]
    team = team_for_user(user=alice[0])
    invitation = alice[1].post(f"/api/v1/teams/{team.pk}/invitations/", {"user": "bob"}).json()
    assert alice[1].post(f"/api/v1/invitations/{invitation['id']}/decline/").json()["status"] == "revoked"
    left = alice[1].post(f"/api/v1/teams/{team.pk}/leave/")
    assert left.status_code == 400 and "last member" in left.json()["detail"]


def test_invite_and_accept_through_the_pages(people, client):
    alice, bob = people["alice"], people["bob"]
    team = team_for_user(user=alice[0])
    client.force_login(alice[0])
    page = client.post(f"/teams/{team.pk}/invite/", {"user": "bob"}, follow=True).content.decode()
    assert "bob was invited" in page and 'id="pending"' in page

    client.force_login(bob[0])
    teams = client.get("/teams/").content.decode()
    assert "Accept" in teams and ">alice<" in teams
    invitation = TeamInvitation.objects.get()
    joined = client.post(f"/invitations/{invitation.pk}/accept/", follow=True).content.decode()
    assert "You joined alice" in joined and "Shared Agent" in joined
    submit_page = client.get("/submit/").content.decode()
    assert "Shared Agent" in submit_page  # bob may pick the team's system


def test_a_member_of_two_teams_creates_a_system_for_either(people):
    alice, bob = people["alice"], people["bob"]
    team = team_for_user(user=alice[0])
    team_for_user(user=bob[0])
    invitation = alice[1].post(f"/api/v1/teams/{team.pk}/invitations/", {"user": "bob"}).json()
    bob[1].post(f"/api/v1/invitations/{invitation['id']}/accept/")

    made = bob[1].post("/api/v1/systems/", {"name": "Team Built", "team": "alice"}, format="json")
    assert made.status_code == 201 and made.json()["team"] == "alice"
    refused = bob[1].post("/api/v1/systems/", {"name": "Sneaky", "team": "mallory"}, format="json")
    assert refused.status_code == 400 and "not a member" in refused.json()["team"][0]


def test_a_team_is_renamed_under_the_look_alike_rule(people):
    alice, bob = people["alice"], people["bob"]
    team_for_user(user=bob[0])
    team = team_for_user(user=alice[0])
    assert alice[1].patch(f"/api/v1/teams/{team.pk}/", {"name": "Alice Labs"}).json()["name"] == "Alice Labs"
    taken = alice[1].patch(f"/api/v1/teams/{team.pk}/", {"name": "BOB"})
    assert taken.status_code == 400 and "already exists" in taken.json()["detail"]
    # the team's name is the subject of its invitation e-mails (the ninth break-it pass of issue 13 put a phishing
    # address there)
    phishing = alice[1].patch(f"/api/v1/teams/{team.pk}/", {"name": "verify at https://evil.example/login"})
    assert phishing.status_code == 400 and 'cannot hold "/"' in phishing.json()["detail"]


def test_inviting_and_revoking_in_a_loop_sends_at_most_three_e_mails_a_day(people):
    """Each invitation is an e-mail to the invitee: inviting and revoking in a loop sent 20 in a row, with the
    inviting team's name as the subject (the ninth break-it pass of issue 13)."""
    alice, bob = people["alice"], people["bob"]
    bob[0].email = "bob@example.org"
    bob[0].save()
    team = team_for_user(user=alice[0])
    answers = []
    for _ in range(5):
        resp = alice[1].post(f"/api/v1/teams/{team.pk}/invitations/", {"user": "bob"})
        answers.append(resp.status_code)
        if resp.status_code == 201:
            alice[1].post(f"/api/v1/invitations/{resp.json()['id']}/decline/")
        else:
            refusal = resp.json()["detail"]

    assert answers == [201, 201, 201, 400, 400] and len(mail.outbox) == 3
    assert "invited 3 times in the last 24 hours" in refusal


def test_an_invitation_takes_only_accept_or_decline(people, client):
    """Any other word in the answer's address was a decline (the ninth break-it pass of issue 13)."""
    alice, bob = people["alice"], people["bob"]
    team = team_for_user(user=alice[0])
    invitation = alice[1].post(f"/api/v1/teams/{team.pk}/invitations/", {"user": "bob"}).json()
    client.force_login(bob[0])

    assert client.post(f"/invitations/{invitation['id']}/maybe/").status_code == 404
    assert TeamInvitation.objects.get(pk=invitation["id"]).status == TeamInvitation.Status.PENDING


# --- an invitation by address is tied to no account until it is answered (the twelfth break-it pass of issue 13) --
def _invite(api, team, who):
    return api.post(f"/api/v1/teams/{team.pk}/invitations/", {"user": who})


def _with_address(person, address):
    person[0].email = address  # User.email holds verified addresses only
    person[0].save()


def test_after_an_address_invitation_user_names_answer_alike_for_its_owner_and_a_stranger(people):
    """Inviting carol@example.org, then user names one by one, told whose address it was: its owner's name answered
    400 "already has a pending invitation", any other 201."""
    alice, bob = people["alice"], people["bob"]
    _with_address(bob, "carol@example.org")
    team = team_for_user(user=alice[0])
    assert _invite(alice[1], team, "carol@example.org").status_code == 201

    owner, stranger = _invite(alice[1], team, "bob"), _invite(alice[1], team, "mallory")

    assert (owner.status_code, stranger.status_code) == (201, 201), (owner.content, stranger.content)
    assert owner.json().keys() == stranger.json().keys()
    assert sorted(i["invitee"] for i in alice[1].get(f"/api/v1/teams/{team.pk}/invitations/").json()["results"]) \
        == ["bob", "carol@example.org", "mallory"]


def test_an_address_nobody_verified_is_invited_like_a_verified_one_and_only_the_verified_one_is_e_mailed(people):
    """Inviting an address answered 400 "No account has verified the address" or 201: anyone learned whether an
    account holds it (sign-up says the address is never shown on the site)."""
    alice, bob = people["alice"], people["bob"]
    _with_address(bob, "bob@example.org")
    team = team_for_user(user=alice[0])

    nobody, somebody = _invite(alice[1], team, "ghost@example.org"), _invite(alice[1], team, "BOB@example.org")

    assert (nobody.status_code, somebody.status_code) == (201, 201), (nobody.content, somebody.content)
    assert nobody.json().keys() == somebody.json().keys()
    assert (nobody.json()["invitee"], somebody.json()["invitee"]) == ("ghost@example.org", "bob@example.org")
    [message] = mail.outbox  # to bob only: nobody has verified ghost@example.org
    assert message.to == ["bob@example.org"]
    assert not TeamInvitation.objects.filter(invitee__isnull=False).exists()  # neither is tied to an account yet


def test_a_members_address_is_invited_like_any_other(people):
    """"x is already a member" for an address told that a member owns it."""
    alice = people["alice"]
    _with_address(alice, "alice@example.org")
    team = team_for_user(user=alice[0])

    resp = _invite(alice[1], team, "alice@example.org")

    assert resp.status_code == 201 and not mail.outbox  # a member is not e-mailed about its own team
    accepted = alice[1].post(f"/api/v1/invitations/{resp.json()['id']}/accept/")  # a member just closes it
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    assert list(team.members.values_list("username", flat=True)) == ["alice"]


def test_the_invitee_sees_and_accepts_an_invitation_to_its_address(people, client):
    alice, bob, mallory = people["alice"], people["bob"], people["mallory"]
    _with_address(bob, "bob@example.org")
    team = team_for_user(user=alice[0])
    made = _invite(alice[1], team, "Bob@Example.ORG").json()

    [waiting] = bob[1].get("/api/v1/invitations/").json()["results"]
    client.force_login(bob[0])
    page = client.get("/teams/").content.decode()
    assert (waiting["id"], waiting["team"]) == (made["id"], "alice")
    assert "Accept" in page and ">alice (to your address bob@example.org)<" in page
    assert mallory[1].get("/api/v1/invitations/").json()["results"] == []
    assert mallory[1].post(f"/api/v1/invitations/{made['id']}/accept/").status_code == 403

    joined = client.post(f"/invitations/{made['id']}/accept/", follow=True).content.decode()

    assert "You joined alice" in joined
    invitation = TeamInvitation.objects.get(pk=made["id"])
    assert (invitation.status, invitation.invitee) == (TeamInvitation.Status.ACCEPTED, bob[0])  # tied on answering
    assert alice[1].get(f"/api/v1/teams/{team.pk}/").json()["members"] == ["alice", "bob"]
    assert alice[1].get(f"/api/v1/teams/{team.pk}/invitations/").json()["results"] == []


def test_declining_an_invitation_to_its_address_ties_it_to_the_account(people):
    alice, bob = people["alice"], people["bob"]
    _with_address(bob, "bob@example.org")
    team = team_for_user(user=alice[0])
    made = _invite(alice[1], team, "bob@example.org").json()

    assert bob[1].post(f"/api/v1/invitations/{made['id']}/decline/").json()["status"] == "declined"
    assert TeamInvitation.objects.get(pk=made["id"]).invitee == bob[0]
    assert not team.members.filter(pk=bob[0].pk).exists()


@pytest.mark.parametrize("accepted", ["bob", "bob@example.org"])
def test_accepting_one_invitation_closes_the_accounts_other_one_to_the_team(people, accepted):
    alice, bob = people["alice"], people["bob"]
    _with_address(bob, "bob@example.org")
    team = team_for_user(user=alice[0])
    made = {who: _invite(alice[1], team, who).json()["id"] for who in ("bob", "bob@example.org")}
    assert len(bob[1].get("/api/v1/invitations/").json()["results"]) == 2

    assert bob[1].post(f"/api/v1/invitations/{made[accepted]}/accept/").status_code == 200

    assert bob[1].get("/api/v1/invitations/").json()["results"] == []
    assert alice[1].get(f"/api/v1/teams/{team.pk}/invitations/").json()["results"] == []  # no orphan
    assert set(TeamInvitation.objects.values_list("status", "invitee")) == {(TeamInvitation.Status.ACCEPTED,
                                                                             bob[0].pk)}
    [other] = set(made.values()) - {made[accepted]}
    late = bob[1].post(f"/api/v1/invitations/{other}/accept/")
    assert late.status_code == 400 and "already accepted" in late.json()["detail"]


def test_an_address_has_one_pending_invitation_and_the_team_counts_it(people, settings):
    alice = people["alice"]
    team = team_for_user(user=alice[0])
    settings.TEAM_MAX_MEMBERS = 3
    assert _invite(alice[1], team, "ghost@example.org").status_code == 201
    again = _invite(alice[1], team, "GHOST@example.org")
    assert again.status_code == 400
    assert again.json()["detail"] == "ghost@example.org already has a pending invitation to alice."
    assert _invite(alice[1], team, "other@example.org").status_code == 201
    full = _invite(alice[1], team, "bob")
    assert full.status_code == 400 and "at most 3 members, pending invitations included" in full.json()["detail"]


@pytest.mark.parametrize("verified", [True, False], ids=["verified", "nobody's"])
def test_an_address_is_invited_at_most_three_times_a_day_whoever_owns_it(people, verified):
    alice, bob = people["alice"], people["bob"]
    if verified:
        _with_address(bob, "bob@example.org")
    team = team_for_user(user=alice[0])
    answers = []
    for _ in range(4):
        resp = _invite(alice[1], team, "bob@example.org")
        answers.append(resp.status_code)
        if resp.status_code == 201:
            alice[1].post(f"/api/v1/invitations/{resp.json()['id']}/decline/")  # revoked
        else:
            refusal = resp.json()["detail"]
    assert answers == [201, 201, 201, 400]
    assert refusal == "bob@example.org was invited 3 times in the last 24 hours: invite them again tomorrow."
    assert len(mail.outbox) == (3 if verified else 0)


def test_an_account_is_e_mailed_about_three_invitations_a_day_by_name_and_address_together(people):
    alice, bob, mallory = people["alice"], people["bob"], people["mallory"]
    _with_address(bob, "bob@example.org")
    team, other = team_for_user(user=alice[0]), team_for_user(user=mallory[0])
    answers = [_invite(alice[1], team, "bob").status_code, _invite(alice[1], team, "bob@example.org").status_code,
               _invite(mallory[1], other, "bob@example.org").status_code, _invite(mallory[1], other, "bob").status_code]

    assert answers == [201, 201, 201, 201]  # the same answers as for an address nobody verified
    assert len(mail.outbox) == 3 and all(m.to == ["bob@example.org"] for m in mail.outbox)
    assert len(bob[1].get("/api/v1/invitations/").json()["results"]) == 4  # all of them listed


def test_an_account_sends_at_most_its_daily_invitations_by_address_too(people, monkeypatch):
    import catalog.services
    monkeypatch.setattr(catalog.services, "INVITATIONS_SENT_PER_DAY", 2)
    alice = people["alice"]
    team = team_for_user(user=alice[0])
    assert [_invite(alice[1], team, who).status_code for who in ("a@example.org", "bob")] == [201, 201]
    refused = _invite(alice[1], team, "c@example.org")
    assert refused.status_code == 400 and "You sent 2 invitations" in refused.json()["detail"]
