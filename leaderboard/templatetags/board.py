"""Template helpers of the board's rows: badges (leaderboard.badges) and significance bands (docs/scoring.md
"Significance groups")."""
from django import template
from django.utils.html import format_html, format_html_join

from leaderboard.badges import Badge, run_badges
from leaderboard.badges import row_badges as badges_of_row

register = template.Library()

#: Above this many rows a band is written as text only (the strip of cells would be too wide).
MAX_BAND_CELLS = 24
#: A band's tooltip names at most this many rows of its group, then "and N more" (the API and exports list all).
MAX_BAND_NAMES = 10


def _render(badges: list[Badge]):
    return format_html_join(" ", '<{} class="rowbadge rowbadge-{}" title="{}"{}>{}</{}>', (
        ("a" if b.url else "span", b.key, b.title,
         format_html(' href="{}" rel="nofollow noopener"', b.url) if b.url else "", b.label,
         "a" if b.url else "span") for b in badges))


@register.simple_tag
def row_badges(row):
    """The badges of a board row (a LeaderboardRow, or a reference row {"run": ...}: leaderboard.badges.row_badges,
    the rule the API's rows are given by too), as HTML spans or links."""
    return _render(badges_of_row(row))


@register.simple_tag
def run_badges_html(run):
    """The badges of one run (a system's submission), as HTML."""
    return _render(run_badges(run))


@register.simple_tag
def band(row, total: int):
    """A row's significance group as a band: one cell per ranked row of the view (when at most MAX_BAND_CELLS),
    filled for the rows not significantly different from this one, darker for the row itself, then the ranks it
    spans (`#1–#3`); its tooltip names at most MAX_BAND_NAMES of the group and `data-group` lists the group's ranks
    (the span alone above MAX_BAND_CELLS rows), so a row's HTML does not grow with the board. A published row (no
    per-task values) has no group: nothing is drawn (its rank cell already says the tie cannot be computed)."""
    group = getattr(row, "significance", None)
    if not group:
        return ""
    positions, ranks, systems = group["positions"], group["ranks"], group["systems"]
    own = group["position"]
    others = [f"#{r} {s}" for p, r, s in zip(positions, ranks, systems) if p != own]
    named = ", ".join(others[:MAX_BAND_NAMES]) + (f" and {len(others) - MAX_BAND_NAMES} more"
                                                   if len(others) > MAX_BAND_NAMES else "")
    title = ("not significantly different from " + named if others else
             "significantly different from every other row") + " (paired bootstrap over tasks, 95%)"
    span = f"#{ranks[0]}" if ranks[0] == ranks[-1] else f"#{ranks[0]}–#{ranks[-1]}"
    cells = ""
    if total <= MAX_BAND_CELLS:
        cells = format_html_join("", '<i class="{}"></i>', (
            ("self" if p == own else "in" if p in positions else "out",) for p in range(1, total + 1)))
    return format_html('<span class="band" title="{}" data-group="{}"><span class="cells">{}</span> {}</span>',
                       title, " ".join(str(r) for r in ranks) if total <= MAX_BAND_CELLS else span, cells, span)
