"""catalog 0013 and leaderboard 0014 (the seventh break-it pass of issue 13), catalog 0014 and leaderboard 0015 (the
eighth) give system, team and user names stored before the new look-alikes their skeletons again: a "Copiⲓot" or
"maլլory" saved earlier then matches "Copilot" and "mallory"."""
from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("catalog", "0012_name_skeleton_twins"), ("leaderboard", "0013_account_name_twins")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_names_stored_before_the_seventh_pass_get_its_skeletons():
    from catalog.names import name_skeleton

    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    old = _migrate(BEFORE)
    user = old.get_model("auth", "User").objects.create(username="ma\u056c\u056cory")
    old.get_model("leaderboard", "AccountName").objects.create(user_id=user.pk, skeleton="ma\u056c\u056cory")
    team = old.get_model("catalog", "Team").objects.create(name="\u00f0elta team", name_skeleton="\u00f0eltateam")
    old.get_model("catalog", "System").objects.create(team=team, name="Copi\u2c93ot", name_skeleton="copi\u2c93ot",
                                                      type="agent")
    _migrate(latest)

    from catalog.models import System, Team
    from leaderboard.models import AccountName

    assert System.objects.get().name_skeleton == name_skeleton("Copilot")
    assert Team.objects.get().name_skeleton == name_skeleton("Delta team")
    assert AccountName.objects.get(user_id=user.pk).skeleton == name_skeleton("mallory")


@pytest.mark.django_db(transaction=True)
def test_names_stored_before_the_eighth_pass_get_its_skeletons():
    """catalog 0014 and leaderboard 0015: a New Tai Lue zero or a Vai one stored earlier reads "o" and "l" now."""
    from catalog.names import name_skeleton

    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    old = _migrate([("catalog", "0013_name_skeleton_seventh_pass"), ("leaderboard", "0014_account_name_seventh_pass")])
    user = old.get_model("auth", "User").objects.create(username="b\u19d0b")
    old.get_model("leaderboard", "AccountName").objects.create(user_id=user.pk, skeleton="b\u19d0b")
    team = old.get_model("catalog", "Team").objects.create(name="Ech\u19d0 team", name_skeleton="ech\u19d0team")
    old.get_model("catalog", "System").objects.create(team=team, name="Copi\ua621ot", name_skeleton="copi\ua621ot",
                                                      type="agent")
    _migrate(latest)

    from catalog.models import System, Team
    from leaderboard.models import AccountName

    assert System.objects.get().name_skeleton == name_skeleton("Copilot")
    assert Team.objects.get().name_skeleton == name_skeleton("Echo team")
    assert AccountName.objects.get(user_id=user.pk).skeleton == name_skeleton("bob")
