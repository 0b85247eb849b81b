"""Template helpers of the research pages: links that keep the split and the board's query string, signed
differences, difficulty labels, and the "reproduce this" block of every report page."""
from __future__ import annotations

from urllib.parse import urlencode

from django import template
from django.utils.html import format_html

from core.grading.metrics import MIN_LABELLED_SYSTEMS
from leaderboard.research import environment_stamps, reproduce_commands

register = template.Library()


@register.simple_tag
def split_query(split, **extra) -> str:
    """`benchmark=..&split=..` of `split`, plus `extra` parameters (empty values left out), URL-encoded."""
    params = {"benchmark": split.benchmark.name, "split": split.name, **extra}
    return urlencode({k: v for k, v in params.items() if v not in (None, "")})


@register.simple_tag(takes_context=True)
def query_with(context, **changes) -> str:
    """The current request's query string with `changes` applied (an empty value removes the key), as `?...`.
    Used by the board's sort links so a filtered, sorted view stays one linkable URL."""
    params = context["request"].GET.copy()
    for key, value in changes.items():
        if value in (None, ""):
            params.pop(key, None)
        else:
            params[key] = value
    encoded = params.urlencode()
    return f"?{encoded}" if encoded else "?"


@register.filter
def signed_pct(value) -> str:
    """A difference of fractions as signed percentage points with one decimal (`+12.5`, `-3.0`, `0.0`);
    `—` for None."""
    if value is None:
        return "—"
    points = 100 * value
    return f"{points:+.1f}" if round(points, 1) != 0 else "0.0"


SHORT_LABELS = {"saturated": "sat.", "never solved": "never", "discriminating": "discr."}


@register.simple_tag
def difficulty_badge(difficulty, short: bool = False, explain: bool = False) -> str:
    """The task's saturated / never solved / discriminating label (docs/scoring.md "Task difficulty and
    discrimination") as a badge (`short`: abbreviated, the full label as its tooltip), or `—` with the reason as
    its tooltip when there is none: no ranked system scored yet, or fewer than MIN_LABELLED_SYSTEMS of them.
    `explain`: the reason also shown as text after the `—`."""
    label = (difficulty or {}).get("label")
    if not label:
        reason = (f"fewer than {MIN_LABELLED_SYSTEMS} ranked systems" if (difficulty or {}).get("systems")
                  else "no ranked system scored yet")
        if explain:
            return format_html('<span class="na" title="{}">— ({})</span>', reason, reason)
        return format_html('<span class="na" title="{}">—</span>', reason)
    css = {"saturated": "label-saturated", "never solved": "label-never"}.get(label, "label-discriminating")
    return format_html('<span class="badge {}" title="{} (docs/scoring.md: Task difficulty and discrimination)">'
                       '{}</span>', css, label, SHORT_LABELS[label] if short else label)


@register.simple_tag
def min_labelled_systems() -> int:
    """How many ranked systems a task needs scored on it before it gets a difficulty label
    (core.grading.metrics.MIN_LABELLED_SYSTEMS)."""
    return MIN_LABELLED_SYSTEMS


@register.inclusion_tag("leaderboard/_reproduce.html")
def reproduce(submission, run):
    """The block that says how to re-score a finished run offline: the exact commands and the environment
    stamps of the run (template leaderboard/_reproduce.html). Renders nothing before the run finished."""
    if run is None or not run.finished_at:
        return {"commands": None}
    return {"commands": reproduce_commands(run=run, archive_name=submission.archive_name),
            "stamps": environment_stamps(run=run), "submission": submission}


@register.simple_tag(takes_context=True)
def sort_link(context, key: str, label: str, query, language: str):
    """A table header that sorts the board on `key` (one of leaderboard.research.SORT_KEYS) in the `language`
    tab, keeping every filter of the query string: metrics and date sort descending first, a second click on
    the column flips the direction. Marks the current column with an arrow."""
    on = query.sort == key
    default_desc = key not in ("rank", "system")
    descending = (not query.descending) if on else default_desc
    href = query_with(context, sort="" if key == "rank" and not descending else key,
                      order="" if descending == default_desc else ("desc" if descending else "asc"),
                      language=language)
    arrow = (" ▼" if query.descending else " ▲") if on else ""
    return format_html('<a class="sort{}" href="{}" title="sort by {}">{}{}</a>', " on" if on else "", href,
                       label, label, arrow)
