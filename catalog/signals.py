"""Signals of the catalog layer that higher layers listen to.

`board_changed(reason)` is sent by a service that changes what the public board shows through a bulk UPDATE
(which sends no post_save): a run finished, a submission withdrawn, a benchmark version superseded. The
leaderboard app bumps its board version on it (leaderboard.board_cache), so cached board rows are read again.
Saves through the ORM need no call: the leaderboard listens to their post_save / post_delete itself.
"""
from django.dispatch import Signal

board_changed = Signal()
