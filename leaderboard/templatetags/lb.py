"""Template helpers for metrics: percentages with their 95% interval."""
import re

from django import template
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import mark_safe

from catalog.selectors import reported_unranked_reason

register = template.Library()


def _pct(value) -> str:
    return f"{100 * value:.1f}"


@register.simple_tag
def metric(metrics: dict, key: str):
    """`42.3%` with `[lo, hi]` under it, or `n/a` when the metric is undefined (AC without endpoints)."""
    value = metrics.get(key)
    if value is None:
        return format_html('<span class="na" title="no task declares endpoints">n/a</span>')
    ci = metrics.get(f"{key}_ci")
    if not ci:
        return format_html("{}%", _pct(value))
    return format_html('{}%<br><span class="ci" title="95% bootstrap interval">[{}, {}]</span>',
                       _pct(value), _pct(ci[0]), _pct(ci[1]))


#: Where a long identifier may wrap (docs: /tasks/): after a separator (_ - . /), before a capital that follows a
#: lower-case letter or a digit (camelCase), before a digit run that follows a letter.
_SOFT_BREAK = re.compile(r"(?<=[_\-./])(?=.)|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Za-z])(?=[0-9])")


@register.filter
def soft_breaks(value) -> str:
    """`value` as escaped HTML with a <wbr> at each natural boundary of an identifier (`Data_<wbr>Rank_<wbr>Searcher`,
    `Structured<wbr>Data<wbr>Convertor`): a narrow column wraps it there, never mid-word."""
    return mark_safe("<wbr>".join(escape(part) for part in _SOFT_BREAK.split(str(value))))


@register.filter
def pct(value):
    """A fraction as a percentage with one decimal, `n/a` for None."""
    return "n/a" if value is None else f"{100 * value:.1f}%"


@register.simple_tag
def published(result, language: str, metric: str):
    """A reported row's value exactly as published (`23.67%`), `—` when the source gives none; a value that
    cannot come from the stated task or endpoint counts is marked with the check's message."""
    value = result.value(language, metric)
    if value is None:
        return format_html('<span class="na" title="not published">—</span>')
    problem = next((f["message"] for f in result.findings
                    if f["field"] == f"{language}_{metric}" and f["kind"] == "denominator"), None)
    if problem:
        return format_html('<span class="inconsistent" title="{}">{}% ⚠</span>', problem, value)
    return format_html("{}%", value)


@register.simple_tag
def reported_status(result, languages, task_count=None, details=False):
    """The status cell of a published row, for the `languages` [(key, label)] its table shows: verified or
    not; with one language and the split's `task_count`, why a verified row is not ranked (its values count
    another number of tasks); the consistency findings of those languages (messages as tooltips, or listed
    under the cell when `details`)."""
    keys = [key for key, _ in languages]
    status = (format_html("verified by an admin {}", result.verified_at.date().isoformat()) if result.is_verified
              else "not verified")
    parts = [format_html("{}", status)]
    if result.is_verified and task_count is not None and len(keys) == 1:
        reason = reported_unranked_reason(result, language=keys[0], task_count=task_count)
        if reason:
            parts.append(format_html('<span class="na">not ranked: {}</span>', reason))
    findings = [f for f in result.findings if f["field"].split("_", 1)[0] in keys]
    for kind, label, css in (("denominator", "⚠ values cannot come from the task counts", "inconsistent"),
                             ("definition", "Pass@1 above DSR: DSR defined differently", "na")):
        messages = [f["message"] for f in findings if f["kind"] == kind]
        if messages:
            parts.append(format_html('<span class="{}" title="{}">{}</span>', css, " ".join(messages), label))
    html = format_html_join(format_html("<br>"), "{}", ((p,) for p in parts))
    if details and findings:
        html = format_html('{}<ul class="findings">{}</ul>', html,
                           format_html_join("", "<li>{}</li>", ((f["message"],) for f in findings)))
    return html
