"""catalog 0013 and leaderboard 0014 (the seventh break-it pass of issue 13), catalog 0014 and leaderboard 0015 (the
eighth), catalog 0016 and leaderboard 0018 (the eleventh) give system, team and user names stored before the new
look-alikes their skeletons again: a "Copiⲓot" or "maլլory" saved earlier then matches "Copilot" and "mallory"."""
from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

#: (the migrations before a pass's, (user, team, system) names stored then with their old skeletons, and the names
#: they must read as after it)
PASSES = {
    "seventh": ([("catalog", "0012_name_skeleton_twins"), ("leaderboard", "0013_account_name_twins")],
                ("ma\u056c\u056cory", "\u00f0elta team", "Copi\u2c93ot"), ("mallory", "Delta team", "Copilot")),
    # a New Tai Lue zero and a Vai one read "o" and "l" now
    "eighth": ([("catalog", "0013_name_skeleton_seventh_pass"), ("leaderboard", "0014_account_name_seventh_pass")],
               ("b\u19d0b", "Ech\u19d0 team", "Copi\ua621ot"), ("bob", "Echo team", "Copilot")),
    # letters with a tick read as their base letter, the sharp s as a "B"
    "eleventh": ([("catalog", "0015_name_skeleton_partial_badge"), ("leaderboard", "0017_account_name_partial_badge")],
                 ("\u00dfob", "\u048flay team", "\u0421\u043e\u048f\u0456\u04cf\u043e\u0442"),
                 ("bob", "play team", "Copilot")),
}


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.parametrize("which", sorted(PASSES))
@pytest.mark.django_db(transaction=True)
def test_names_stored_before_a_break_it_pass_get_its_skeletons(which):
    from catalog.names import name_skeleton

    before, (user_name, team_name, system_name), (user_reads, team_reads, system_reads) = PASSES[which]
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    old = _migrate(before)
    user = old.get_model("auth", "User").objects.create(username=user_name)
    old.get_model("leaderboard", "AccountName").objects.create(user_id=user.pk, skeleton=user_name.lower())
    team = old.get_model("catalog", "Team").objects.create(name=team_name,
                                                           name_skeleton=team_name.lower().replace(" ", ""))
    old.get_model("catalog", "System").objects.create(team=team, name=system_name, name_skeleton=system_name.lower(),
                                                      type="agent")
    _migrate(latest)

    from catalog.models import System, Team
    from leaderboard.models import AccountName

    assert System.objects.get().name_skeleton == name_skeleton(system_reads)
    assert Team.objects.get().name_skeleton == name_skeleton(team_reads)
    assert AccountName.objects.get(user_id=user.pk).skeleton == name_skeleton(user_reads)
