"""Pages: the leaderboard, the task catalog, systems, sign-up."""
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from markdown_it import MarkdownIt
from django_ratelimit.decorators import ratelimit

from leaderboard.accounts import account_create, verification_send
from leaderboard.board_cache import board_cached
from leaderboard.charts import failure_breakdown_figure, radar_figure, shared_template
from leaderboard.forms import SignUpForm, SystemCreateForm, SystemForm
from leaderboard.history import system_history
from catalog.models import Benchmark, Split, System
from catalog.selectors import NotFound, default_benchmark_name, excluded_task_names, reported_results, split_get, split_tasks
from leaderboard.research import BoardQuery, board_choices, board_filter, board_query
from leaderboard.selectors import LANGUAGE_VIEWS, leaderboard_rows, reference_rows, reported_apart, task_health
from catalog.services import personal_team_renamed, system_create, team_for_user
from submissions.agents.selectors import system_agent_panel
from submissions.selectors import submissions_visible
from submissions.services import SubmissionError
from submissions.systems import ALWAYS_EDITABLE, system_delete, system_has_ranked_submission, system_update
from catalog.selectors import user_in_team
from django.core.exceptions import PermissionDenied
from django.views.decorators.http import require_POST

LABELS = {"python": "Python", "java": "Java", "overall": "Overall"}
#: Rows per page of a page's long lists (a system's submissions): ?page= picks the page (leaderboard/_pager.html).
PAGE_ROWS = 25
REPORTED_LANGUAGES = [("python", "Python"), ("java", "Java")]


def _split_or_404(request) -> Split:
    try:
        return split_get(benchmark=request.GET.get("benchmark"), split=request.GET.get("split"))
    except NotFound as exc:
        raise Http404(str(exc)) from exc


def _no_leaderboard(request, problem: NotFound):
    """No benchmark imported yet (200, how to import one), or the benchmark or split asked for does not exist
    (404, with the leaderboards that do and a link to the benchmark's published results if there are any)."""
    asked = request.GET.get("benchmark") or request.GET.get("split")
    published = reported_results(benchmark=request.GET.get("benchmark") or default_benchmark_name()).exists()
    return render(request, "leaderboard/empty.html", status=404 if asked else 200, context={
        "problem": str(problem), "asked": asked, "benchmarks": Benchmark.objects.filter(is_current=True),
        "reported": published})


def home(request):
    """The split's leaderboard: a tab per language view, each with its ranked table and radar chart, then the
    published results of this benchmark and split that are not ranked (in `overall`: all of them, both languages,
    since the authors report per language only). The query string sorts and filters the rows
    (leaderboard.research.board_query: sort, order, type, framework, base_model, q, since, until); ranks stay
    those of the whole board.

    The board's HTML (everything but the page's frame, which shows the visitor's log-in) is rendered once per
    board version, split and query string and then read from the cache (leaderboard.board_cache); for a visitor
    without a session the whole page is, keyed by the query string alone (the board version covers which split it
    names): a cached page costs one query (the version), whatever the number of systems."""
    params = sorted((k, tuple(v)) for k, v in request.GET.lists())
    try:
        if _visitor_without_state(request):  # the frame shows nothing of its own: the same bytes for everyone
            return HttpResponse(board_cached(anonymous_page_key(request), lambda: _home_page(request, params).content))
        return _home_page(request, params)
    except NotFound as exc:  # raised before anything is cached
        return _no_leaderboard(request, exc)


def _home_page(request, params: list) -> HttpResponse:
    """The board page of the split the query string names. Raises NotFound."""
    split = split_get(benchmark=request.GET.get("benchmark"), split=request.GET.get("split"))
    board_html = board_cached(("home", split.pk, params),
                              lambda: render_to_string("leaderboard/_board.html", _board_context(request, split),
                                                       request=request))  # its links keep the query string
    return render(request, "leaderboard/home.html", {"split": split, "board_html": mark_safe(board_html)})


def anonymous_page_key(request) -> tuple:
    """The cache key parts of the board page a visitor without a session gets for this request's query string
    (leaderboard.board_cache.board_key adds the board version). Read before the view too, by
    leaderboard.page_cache.CachedBoardPageMiddleware."""
    return ("home-page", sorted((k, tuple(v)) for k, v in request.GET.lists()))


def visitor_cookies_without_state(request) -> bool:
    """True when the request carries neither a session nor pending messages (their cookies absent): nothing in
    the page's frame can be its own."""
    return settings.SESSION_COOKIE_NAME not in request.COOKIES and "messages" not in request.COOKIES


def _visitor_without_state(request) -> bool:
    """True when the page's frame would show this visitor nothing of its own: not signed in, no session and no
    pending messages (their cookies absent), so every such visitor gets the same bytes for the same URL."""
    return visitor_cookies_without_state(request) and not request.user.is_authenticated


#: Rows of each language view a board page shows unless `?rows=all` (a page of 1,000 systems stays light; ranks,
#: intervals and significance groups are those of the whole board).
BOARD_PAGE_ROWS = 100


def _board_context(request, split: Split) -> dict:
    """The context of leaderboard/_board.html for this request's query string."""
    try:
        query = board_query(request.GET)
    except ValueError as exc:
        query, problem = BoardQuery(), str(exc)
    else:
        problem = None
    views, everything = [], []
    for language in LANGUAGE_VIEWS:
        ranked = leaderboard_rows(split=split, language=language)
        everything += ranked
        rows = board_filter(ranked, query=query)
        evaluated = [r for r in ranked if r.run is not None]  # the rows a comparison can pair (per-task results)
        count = split_tasks(split=split, language=language).count()
        excluded = excluded_task_names(split=split, language=language)
        overall = language == "overall"
        shown = rows if request.GET.get("rows") == "all" else rows[:BOARD_PAGE_ROWS]
        views.append({
            "key": language, "label": LABELS[language], "rows": shown, "cut": len(rows) - len(shown),
            "matching": len(rows), "task_count": count, "excluded": excluded,
            "figure_id": f"fig-{language}",
            "figure": radar_figure(rows=[(f"{r.label} (reported)" if r.reported else r.label, r.metrics)
                                         for r in rows],
                                   title=f"{LABELS[language]}: {split.benchmark.name} / {split.name}"),
            "reported": reported_apart(split=split, rows=ranked), "hidden": len(ranked) - len(rows),
            "ranked_count": len(ranked),
            "leader": evaluated[0] if evaluated else None, "runner_up": evaluated[1] if len(evaluated) > 1 else None,
            "oracle": reference_rows(split=split, language=language),
            "reported_languages": REPORTED_LANGUAGES if overall else [(language, LABELS[language])],
        })
    active = request.GET.get("language", "python")
    plotly_template = shared_template(v["figure"] for v in views)  # once per page, not once per tab
    return {"split": split, "views": views, "plotly_template": plotly_template,
            "active": active if active in LANGUAGE_VIEWS else "python",
            "query": query, "query_problem": problem, "choices": board_choices(everything)}


def reported(request):
    """Every published result "reported by the authors", per benchmark and split, with its source, the
    consistency check and whether an admin verified it for the ranked tables."""
    rows = list(reported_results(benchmark=request.GET.get("benchmark"), split=request.GET.get("split")))
    groups: dict[tuple[str, str], list] = {}
    for row in rows:
        groups.setdefault((row.benchmark_name, row.split_name), []).append(row)
    return render(request, "leaderboard/reported.html", {
        "groups": [{"benchmark": b, "split": s, "rows": g, "first": g[0]} for (b, s), g in groups.items()],
        "languages": REPORTED_LANGUAGES})


#: READMEs are read the way GitHub shows them: CommonMark plus GFM tables and strikethrough (markdown-it-py), with
#: raw HTML shown as text (`html` off), so `<id>` in paths stays visible and no markup of a README reaches the page;
#: markdown-it-py's link check drops javascript:, vbscript:, file: and non-image data: URLs.
_README = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])


def render_readme(text: str) -> str:
    """A task's README (Markdown) as HTML the way GitHub renders it: CommonMark (a list may follow a paragraph
    line directly), GFM tables and strikethrough; raw HTML escaped, script URLs not linked."""
    return _README.render(text)


def task_list(request):
    """The task catalog of a split: language, framework, domain, port, declared endpoints."""
    split = _split_or_404(request)
    return render(request, "leaderboard/task_list.html", {"split": split, "rows": task_health(split=split)})


def task_detail(request, name: str):
    """One task: metadata, declared endpoints, the README rendered (public splits only)."""
    split = _split_or_404(request)
    task = get_object_or_404(split_tasks(split=split), name=name)
    health = next(h for h in task_health(split=split) if h["name"] == task.name)
    readme = render_readme(task.readme) if split.visibility == Split.Visibility.PUBLIC else None
    return render(request, "leaderboard/task_detail.html", {"split": split, "task": task, "health": health,
                                                            "readme_html": readme})


def system_detail(request, pk: int):
    """A system and its public submissions (plus private ones for its team), PAGE_ROWS per page (?page=, newest
    first); for its team also the agent endpoint form and the "Run on split" button."""
    system = get_object_or_404(System.objects.select_related("team"), pk=pk)
    visible = submissions_visible(user=request.user).filter(system=system).order_by("-created_at", "-pk")
    page = Paginator(visible.prefetch_related("runs"), PAGE_ROWS).get_page(request.GET.get("page"))
    subs = list(page)  # this page's submissions, newest first; the chart shows the same ones
    scored = [(f"#{s.pk} {s.created_at:%Y-%m-%d}", run.scores.overall["outcomes"])
              for s in subs for run in s.runs.all()[:1] if run.scores]
    figure = failure_breakdown_figure(rows=scored, title="Failure breakdown per submission") if scored else None
    member = user_in_team(user=request.user, team=system.team)
    return render(request, "leaderboard/system_detail.html", {"system": system, "submissions": subs, "page": page,
                                                              "figure": figure, "is_member": member,
                                                              "history": system_history(system=system),
                                                              "ranked": member and system_has_ranked_submission(
                                                                  system=system),
                                                              "agent": system_agent_panel(system=system, user=request.user)})


@ratelimit(key="ip", rate=lambda group, request: settings.SIGNUP_RATE, method="POST", block=False)
def signup(request):
    """Create an account (and a personal team, in one transaction: leaderboard.accounts.account_create), mail the
    link that verifies its e-mail address, then log in. 400 with the form's errors (a name or address taken by a
    sign-up at the same moment too); at most SIGNUP_RATE new accounts per address (429)."""
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and getattr(request, "limited", False):
        form.is_valid()  # add_error needs a cleaned form
        form.add_error(None, "Too many new accounts from your address; try again later. A team shares one quota: "
                             "ask your team to add you instead.")
        return render(request, "registration/signup.html", {"form": form}, status=429)
    if request.method == "POST" and form.is_valid():
        try:
            user, record, team = account_create(form=form)
        except ValidationError as exc:  # the name or address was taken between the form's check and the write
            form.add_error(None, exc)
            return render(request, "registration/signup.html", {"form": form}, status=400)
        verification_send(request=request, record=record)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome! We sent a link to {record.email}: open it to verify the address "
                                  "(it is how you reset a forgotten password). Now create a system, then submit "
                                  "its generated repositories.")
        if personal_team_renamed(user=user, team=team):
            messages.info(request, f"Your team is called {team.name}: {user.username!r} is taken, reserved or "
                                   "looks like another team's name on the leaderboard. Rename it on the Teams "
                                   "page.")
        return redirect("leaderboard:system_new")
    if request.method == "POST":
        return render(request, "registration/signup.html", {"form": form}, status=400)
    return render(request, "registration/signup.html", {"form": form})


@login_required
def system_new(request):
    """Create a system for the user's team (the one chosen, for members of several)."""
    form = SystemCreateForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        fields = dict(form.cleaned_data)
        team = fields.pop("team", None) or team_for_user(user=request.user)
        try:
            system = system_create(team=team, **fields)
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, f"System {system.name} created.")
            return redirect("submissions:submit")
    return render(request, "leaderboard/system_form.html", {"form": form}, status=400 if form.errors else 200)


def _own_system_or_403(request, pk: int) -> System:
    system = get_object_or_404(System.objects.select_related("team"), pk=pk)
    if not (user_in_team(user=request.user, team=system.team) or request.user.is_staff):
        raise PermissionDenied(f"the system {system.name!r} belongs to another team")
    return system


@login_required
def system_edit(request, pk: int):
    """Edit a system of the user's team; one with a ranked submission keeps everything but URL and description
    (those fields are shown disabled)."""
    system = _own_system_or_403(request, pk)
    ranked = system_has_ranked_submission(system=system)
    form = SystemForm(request.POST or None, instance=System.objects.get(pk=system.pk), user=request.user)
    if ranked:
        for name, field in form.fields.items():
            if name not in ALWAYS_EDITABLE:
                field.disabled = True
                field.help_text = "kept as the board showed it: the system has a ranked submission"
    if request.method == "POST" and form.is_valid():
        try:
            system_update(system=system, user=request.user,
                          **{k: v for k, v in form.cleaned_data.items() if not form.fields[k].disabled})
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, f"System {system.name} saved.")
            return redirect("leaderboard:system", pk=system.pk)
    return render(request, "leaderboard/system_form.html", {"form": form, "system": system, "ranked": ranked},
                  status=400 if form.errors else 200)


@require_POST
@login_required
def system_remove(request, pk: int):
    """Delete a system of the user's team that has no ranked submission (and none running)."""
    system = _own_system_or_403(request, pk)
    try:
        system_delete(system=system, user=request.user)
    except SubmissionError as exc:
        messages.error(request, str(exc))
        return redirect("leaderboard:system", pk=pk)
    messages.success(request, f"System {system.name} and its submissions were deleted.")
    return redirect("leaderboard:home")
