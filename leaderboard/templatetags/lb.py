"""Template helpers for metrics: percentages with their 95% interval."""
from django import template
from django.utils.html import format_html

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
