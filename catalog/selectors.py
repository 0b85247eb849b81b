"""Reads of the catalog: benchmarks, splits and their tasks, published results."""
from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Q, QuerySet

from .models import Benchmark, ReportedResult, Split, System, Task, Team, TeamInvitation
from .reported_files import METRICS


class NotFound(LookupError):
    """The benchmark, split or language asked for does not exist; the message names it."""


def default_benchmark_name() -> str:
    """The first of settings.DEFAULT_BENCHMARKS with a current version in the database (else the first named)."""
    imported = set(Benchmark.objects.filter(is_current=True, name__in=settings.DEFAULT_BENCHMARKS)
                   .values_list("name", flat=True))
    return next((n for n in settings.DEFAULT_BENCHMARKS if n in imported), settings.DEFAULT_BENCHMARKS[0])


def split_get(*, benchmark: str | None = None, split: str | None = None) -> Split:
    """The named split of the current version of a benchmark (default: the first of DEFAULT_BENCHMARKS that is
    imported, and DEFAULT_SPLIT). Raises NotFound."""
    name, split_name = benchmark or default_benchmark_name(), split or settings.DEFAULT_SPLIT
    found = (Split.objects.select_related("benchmark")  # one query when both exist (every board request)
             .filter(benchmark__name=name, benchmark__is_current=True, name=split_name).first())
    if found is not None:
        return found
    if not Benchmark.objects.filter(name=name, is_current=True).exists():
        raise NotFound(f"no benchmark named {name!r}")
    raise NotFound(f"benchmark {name!r} has no split {split_name!r}")


def upload_splits() -> QuerySet[Split]:
    """The splits that take archive uploads (visibility `public`) of the current version of every benchmark, by
    benchmark and split name, each with `task_count` (its number of tasks) and its benchmark selected."""
    return (Split.objects.filter(benchmark__is_current=True, visibility=Split.Visibility.PUBLIC)
            .select_related("benchmark").annotate(task_count=Count("tasks")).order_by("benchmark__name", "name"))


def split_tasks(*, split: Split, language: str = "overall") -> QuerySet[Task]:
    """The split's tasks (of one language unless `overall`), by name."""
    tasks = split.tasks.order_by("name")
    return tasks if language == "overall" else tasks.filter(language=language)


def excluded_task_names(*, split: Split, language: str = "overall") -> list[str]:
    """Names of the split's tasks left out of every mean (N = 0, `Task.is_excluded`), by name."""
    return list(split_tasks(split=split, language=language).filter(tests_total=0).values_list("name", flat=True))


def reported_results(*, benchmark: str | None = None, split: str | None = None,
                     verified: bool | None = None) -> QuerySet[ReportedResult]:
    """Published results "reported by the authors", of one benchmark and/or split (by name) when given, in
    benchmark, split, source-file order; only verified (True) or only unverified (False) rows when asked."""
    rows = ReportedResult.objects.all()
    if benchmark:
        rows = rows.filter(benchmark_name=benchmark)
    if split:
        rows = rows.filter(split_name=split)
    if verified is not None:
        rows = rows.filter(verified_at__isnull=not verified)
    return rows.select_related("verified_by")


def reported_metrics(result: ReportedResult, language: str) -> dict[str, Any]:
    """The row's published values for one language (`python` or `java`) as fractions in the shape of the M of
    docs/scoring.md "Report schema" (no interval, no Solved: the authors publish neither), plus `published`
    {metric: percent string as published}; a value the source does not report is None."""
    values = {m: result.value(language, m) for m in METRICS}
    return {**{m: None if v is None else float(v / 100) for m, v in values.items()},
            **{f"{m}_ci": None for m in METRICS}, "solved": None, "solved_ci": None,
            "published": {m: None if v is None else str(v) for m, v in values.items()}}


def reported_unranked_reason(result: ReportedResult, *, language: str, task_count: int) -> str | None:
    """Why a published row is not ranked in a language view, or None when it is: ranked rows are verified by an
    admin, report that language, and count as many tasks of it as the split has (numbers over another task set
    are not comparable). Never in `overall`: the authors publish no task-weighted overall value."""
    if language == "overall":
        return "the authors publish Python and Java values only, no overall value"
    if not result.is_verified:
        return "not verified by an admin"
    counted = result.denominators.get(language, {}).get("tasks")
    if result.value(language, "pass_at_1") is None or counted is None:
        return f"the source reports no {language.title()} values"
    if counted != task_count:
        return f"its values count {counted} tasks, this split has {task_count}"
    return None


def reported_rankable(result: ReportedResult, *, language: str, task_count: int) -> bool:
    """True when a published row may be ranked in a language view (see `reported_unranked_reason`)."""
    return reported_unranked_reason(result, language=language, task_count=task_count) is None


def reported_as_dict(result: ReportedResult) -> dict[str, Any]:
    """JSON shape of a reported row: who, per-language published percentages, source, consistency, verification."""
    return {
        "system": result.system, "base_model": result.base_model, "type": result.type,
        "values_percent": {lang: {m: None if result.value(lang, m) is None else str(result.value(lang, m))
                                  for m in METRICS} for lang in ("python", "java")},
        "source": result.source, "source_url": result.source_url, "source_date": result.source_date.isoformat(),
        "paper": result.paper, "paper_url": result.paper_url, "denominators": result.denominators,
        "consistent": result.consistent, "findings": result.findings,
        "verified": result.is_verified,
        "verified_at": result.verified_at.isoformat() if result.verified_at else None,
    }


def user_in_team(*, user: User | AnonymousUser, team: Team) -> bool:
    """True when `user` is signed in and a member of `team`: the one membership check behind every "your team's"
    permission (its systems, submissions, archives, agent endpoint)."""
    return bool(user.is_authenticated and team.members.filter(pk=user.pk).exists())


def systems_of_user(*, user: User | AnonymousUser) -> QuerySet[System]:
    """The systems of the user's teams (none for an anonymous user), by name."""
    if not user.is_authenticated:
        return System.objects.none()
    return System.objects.filter(team__members=user).distinct()


#: The largest row id the databases hold (a signed 64-bit integer).
MAX_ID = 2 ** 63 - 1


def ascii_id(text: str | None) -> int | None:
    """`text` as a row id when it is only ASCII digits ("12", "007") of a value up to MAX_ID, else None: the one
    parser of ids sent in references and form fields. `str.isdigit()` alone is true for "³" or "١٢", which `int()`
    or the database then refuse (a 500); more than 4,300 digits `int()` refuses too, and a value past MAX_ID the
    database (break-it pass 10 of issue 13: a 5,000-digit system reference was a 500)."""
    if not (isinstance(text, str) and text.isascii() and text.isdigit() and len(text) <= 30):
        return None
    value = int(text)
    return value if value <= MAX_ID else None


def system_by_ref(ref: str) -> System | None:
    """The system a reference names: ASCII digits are its id (`ascii_id`), anything else its exact name (names of
    only digits are refused, catalog.names, so the two never collide; "³" or "١٢" are names, never ids). None when
    none."""
    systems = System.objects.select_related("team")
    pk = ascii_id(ref)
    if pk is not None:
        return systems.filter(pk=pk).first()
    return systems.filter(name=ref).first()


def invitations_received(*, user: User) -> QuerySet[TeamInvitation]:
    """The invitations of `user`, of every status: those to its user name, those by address it answered, and those
    to its verified address (case-insensitive) no account has answered yet; each names the account only once it is
    answered (TeamInvitation.invitee). Filter by status for the pending ones (its /teams/ page, the API)."""
    mine = Q(invitee=user)
    if user.email:  # User.email holds verified addresses only
        mine |= Q(invitee__isnull=True, invited_as__iexact=user.email)
    return TeamInvitation.objects.filter(mine)
