"""catalog 0018: an invitation made by e-mail address is tied to no account until it is answered. Existing rows
migrate: a pending invitation by address loses its invitee (the account whose verified address it is still sees
it), its address is lower-cased, and answered ones and those by user name keep their account; back to 0017 a pending
one is given to the account again."""
from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("catalog", "0017_invitation_invited_as")]
AFTER = [("catalog", "0018_invitation_by_address_unbound")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def back_to_the_latest_schema(transactional_db):
    yield
    executor = MigrationExecutor(connection)
    _migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.usefixtures("back_to_the_latest_schema")
def test_invitations_by_address_are_untied_from_their_account_and_tied_again_backwards():
    old = _migrate(BEFORE)
    User, Team = old.get_model("auth", "User"), old.get_model("catalog", "Team")
    Invitation = old.get_model("catalog", "TeamInvitation")
    bob = User.objects.create(username="bob", email="bob@example.org")
    alice = User.objects.create(username="alice")
    first = Team.objects.create(name="First", name_skeleton="first")
    second = Team.objects.create(name="Second", name_skeleton="second")
    by_address = Invitation.objects.create(team=first, invitee=bob, invited_by=alice, invited_as="Bob@Example.org")
    answered = Invitation.objects.create(team=second, invitee=bob, invited_by=alice, invited_as="BOB@example.org",
                                         status="accepted")
    by_name = Invitation.objects.create(team=second, invitee=alice, invited_by=bob)

    new = _migrate(AFTER)
    rows = {i.pk: i for i in new.get_model("catalog", "TeamInvitation").objects.all()}
    assert (rows[by_address.pk].invitee_id, rows[by_address.pk].invited_as, rows[by_address.pk].status) \
        == (None, "bob@example.org", "pending")
    assert (rows[answered.pk].invitee_id, rows[answered.pk].invited_as) == (bob.pk, "bob@example.org")
    assert (rows[by_name.pk].invitee_id, rows[by_name.pk].invited_as) == (alice.pk, "")

    from catalog.selectors import invitations_received
    from django.contrib.auth.models import User as Today
    assert [i.pk for i in invitations_received(user=Today.objects.get(pk=bob.pk)).filter(status="pending")] \
        == [by_address.pk]

    back = _migrate(BEFORE)
    assert back.get_model("catalog", "TeamInvitation").objects.get(pk=by_address.pk).invitee_id == bob.pk
