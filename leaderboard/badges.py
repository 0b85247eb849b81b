"""Badges of a board row (issue 12, feature 8): what a row's numbers are and where they come from, each with the
sentence its tooltip shows (docs/scoring.md "Badges").

- `verified`: evaluated by this site (the run's evaluator, backend and isolation), as opposed to
- `partial`: the submission held only some of the split's tasks (queued with tasks missing): the others score 0 in
  every mean, and the tooltip says how many it held;
- `reported`: published by the benchmark's authors with their own scripts, not evaluated here;
- `open-source`: the team gave the public repository of the system's code (linked);
- `agent-endpoint`: the repositories were generated here, by calling the system's agent with each hidden README
  (protocol agent/1), not uploaded;
- `oracle`: the benchmark's reference solutions, shown apart from the competition and never ranked.

`row_badges` is the one rule of which badges a board row carries: the board page (leaderboard.templatetags.board)
and the leaderboard API (leaderboard.selectors.LeaderboardRow.as_dict, leaderboard.api.board) both ask it, and the
exports (leaderboard.exports) ask `run_badges`, which it calls for every row evaluated here.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from catalog.models import ReportedResult, System
from evaluation.models import EvaluationRun
from submissions.models import Submission

#: Every badge key, in the order rows show them.
KEYS = ("oracle", "verified", "partial", "reported", "agent-endpoint", "open-source")
#: The label each badge shows (names are compared without them at their end: catalog.names.DECORATIONS).
LABELS = {"oracle": "oracle", "verified": "verified", "partial": "partial", "reported": "reported by the authors",
          "agent-endpoint": "agent endpoint", "open-source": "open source"}


@dataclass(frozen=True)
class Badge:
    """One badge: `key` (one of KEYS), the `label` shown, the `title` (tooltip) saying what it means, and a `url`
    ('' for none: the open-source badge links to the code, the reported badge to its source)."""

    key: str
    label: str
    title: str
    url: str = ""

    def as_dict(self) -> dict[str, str]:
        """{"key", "label", "title", "url"}."""
        return asdict(self)


def run_badges(run: EvaluationRun) -> list[Badge]:
    """The badges of a row evaluated by this site (a system's run), in KEYS order."""
    submission, system = run.submission, run.submission.system
    badges = []
    if system.type == System.Type.REFERENCE:
        badges.append(Badge("oracle", LABELS["oracle"], "the benchmark's reference solutions: the ceiling systems "
                                                        "are measured against, shown apart and never ranked"))
    sandbox = f"{run.backend or 'local'} backend, isolation {run.isolation or 'unknown'}"
    badges.append(Badge("verified", LABELS["verified"], f"verified by this site: evaluated here against the hidden "
                                                        f"tests (evaluator {run.evaluator_version or 'unknown'}, "
                                                        f"{sandbox})"))
    partial = _partial_badge(run)
    if partial is not None:
        badges.append(partial)
    if submission.source == Submission.Source.ENDPOINT:
        badges.append(Badge("agent-endpoint", LABELS["agent-endpoint"], "generated here: the platform called the "
                                                                        "system's agent with each task's README "
                                                                        "(protocol agent/1); no uploaded archive"))
    if system.is_open_source:
        badges.append(Badge("open-source", LABELS["open-source"], f"open source: the code is at {system.source_url}",
                            system.source_url))
    return badges


def _partial_badge(run: EvaluationRun) -> Badge | None:
    """`partial` when the run's tasks include some whose folder was missing (outcome `missing`, from its stored
    summary: no query), else None."""
    summary = run.scores
    overall = summary.overall if summary is not None else {}
    missing, tasks = (overall.get("outcomes") or {}).get("missing", 0), overall.get("tasks", 0)
    if not missing:
        return None
    return Badge("partial", LABELS["partial"], f"partial: {tasks - missing} of {tasks} tasks submitted; the "
                                               f"{missing} missing score 0 in every mean")


def reported_badges(result: ReportedResult) -> list[Badge]:
    """The badges of a published row: `reported` (linked to its source), never `verified`."""
    return [Badge("reported", LABELS["reported"],
                  f"reported by the authors ({result.source}): not evaluated by this site, no interval",
                  result.source_url)]


def row_badges(row: Any) -> list[Badge]:
    """The badges of a board row: a leaderboard.selectors.LeaderboardRow (a published row an admin verified:
    `reported_badges`; a system's run: `run_badges`) or a reference row {"run": ...} (`run_badges`: `oracle`
    first)."""
    reported = getattr(row, "reported", None)
    if reported:
        return reported_badges(reported)
    return run_badges(row["run"] if isinstance(row, dict) else row.run)


def badge_keys(badges: list[Badge]) -> list[str]:
    """The keys of `badges`, in their order: what the API and the exports carry."""
    return [b.key for b in badges]
