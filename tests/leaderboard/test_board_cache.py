"""A fast board (issue 14): a constant number of SQL queries whatever the number of systems, rows and responses
cached per board version, and no stale board once a result is recorded or a submission withdrawn."""
import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog.models import Team
from submissions.services import submission_withdraw
from tests.factories import finished_submission

BOARD_URLS = ["/?benchmark=demo", "/api/v1/leaderboard/?benchmark=demo", "/api/v1/export/board.json?benchmark=demo",
              "/api/v1/export/board.csv?benchmark=demo", "/api/v1/export/results.csv?benchmark=demo",
              "/matrix/?benchmark=demo"]


def _systems(split, upto: int) -> None:
    names = sorted(split.tasks.values_list("name", flat=True))
    while (i := split.runs.count()) < upto:
        finished_submission(split=split, system_name=f"system-{i:02d}", team=Team.objects.create(name=f"team-{i}"),
                            scores={t: ((i + k) % 3, "passed" if (i + k) % 3 else "tests_failed", 1)
                                    for k, t in enumerate(names)})


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(ctx.captured_queries)


@pytest.mark.django_db
def test_board_queries_do_not_grow_with_the_systems(client, demo_split):
    counts = {}
    for n in (3, 30):
        _systems(demo_split, n)
        cache.clear()  # computed afresh (a miss), then read (a hit)
        counts[n] = {url: (_queries(client, url), _queries(client, url)) for url in BOARD_URLS}
    assert counts[3] == counts[30], counts
    for url, (miss, hit) in counts[30].items():
        if "matrix" not in url:
            assert hit <= 4 < miss, (url, miss, hit)  # a cached answer: split, board version (and little else)


@pytest.mark.django_db
def test_board_shows_a_new_result_and_a_withdrawal_at_once(client, demo_split):
    _systems(demo_split, 3)
    before = client.get("/api/v1/leaderboard/?benchmark=demo").json()["rows"]
    assert len(before) == 3 and client.get("/api/v1/leaderboard/?benchmark=demo").json()["rows"] == before
    names = sorted(demo_split.tasks.values_list("name", flat=True))
    tests = dict(demo_split.tasks.values_list("name", "tests_total"))
    best = finished_submission(split=demo_split, system_name="newcomer", team=Team.objects.create(name="new"),
                               scores={t: (tests[t], "passed", 1) for t in names})
    rows = client.get("/api/v1/leaderboard/?benchmark=demo").json()["rows"]
    assert [r["system"] for r in rows][0] == "newcomer" and len(rows) == 4
    assert "newcomer" in client.get("/?benchmark=demo").content.decode()
    assert "newcomer" in client.get("/api/v1/export/board.csv?benchmark=demo").content.decode()
    with CaptureQueriesContext(connection) as first:
        client.get("/api/v1/leaderboard/?benchmark=demo")
    assert len(first.captured_queries) <= 4

    admin = User.objects.create_user("admin", is_staff=True)
    submission_withdraw(submission=best, user=admin, reason="wrong split")
    rows = client.get("/api/v1/leaderboard/?benchmark=demo").json()["rows"]
    assert "newcomer" not in [r["system"] for r in rows] and len(rows) == 3
    assert "newcomer" not in client.get("/api/v1/export/board.json?benchmark=demo").content.decode()


@pytest.mark.django_db
def test_board_shows_a_renamed_system_at_once(client, demo_split):
    _systems(demo_split, 2)
    assert "system-00" in client.get("/?benchmark=demo").content.decode()
    from catalog.models import System
    system = System.objects.get(name="system-00")
    system.name = "renamed-system"
    system.save()
    page = client.get("/?benchmark=demo").content.decode()
    assert "renamed-system" in page and "system-00" not in page


def test_groups_of_equal_rows_are_those_of_the_rule():
    """Rows with equal per-task Pass@1 are grouped once; the groups are exactly core's significance_groups."""
    from core.grading.ranking import significance_groups
    from leaderboard.significance import _groups_of_distinct_rows

    rows = [[1.0] * 8, [1.0] * 8, [1.0, 1, 1, 1, 0, 0, 0, 0], None, [0.0] * 8, [1.0, 1, 1, 1, 0, 0, 0, 0],
            [0.0] * 8, [1.0, 1, 1, 1, 1, 1, 0.5, 0]]
    assert _groups_of_distinct_rows(rows, resamples=500, seed=7) == significance_groups(rows, resamples=500, seed=7)


@pytest.mark.django_db
def test_a_large_board_page_shows_its_first_rows_and_links_to_all(client, demo_split, monkeypatch):
    """A board of many systems stays a light page: each tab shows its first BOARD_PAGE_ROWS rows with a link to
    all of them (ranks are those of the whole board), and a band's tooltip names at most MAX_BAND_NAMES rows."""
    from leaderboard.templatetags import board
    from leaderboard.views import pages

    monkeypatch.setattr(pages, "BOARD_PAGE_ROWS", 2)
    monkeypatch.setattr(board, "MAX_BAND_NAMES", 1)
    _systems(demo_split, 4)
    page = client.get("/?benchmark=demo&language=overall").content.decode()
    overall = page[page.index('id="panel-overall"'):]
    assert "The first 2 of 4 rows." in overall and overall.count('<td class="rank">') == 2
    assert 'href="?benchmark=demo&amp;language=overall&amp;rows=all"' in overall
    everything = client.get("/?benchmark=demo&language=overall&rows=all").content.decode()
    overall_all = everything[everything.index('id="panel-overall"'):]
    assert overall_all.count('<td class="rank">') == 4 and "The first" not in overall_all
    assert " and 2 more (paired bootstrap" in everything or " and 1 more (paired bootstrap" in everything


@pytest.mark.django_db
def test_rows_below_the_significance_limit_have_no_group_and_are_in_none(client, demo_split, monkeypatch):
    """docs/scoring.md "Significance groups": groups among the first SIGNIFICANCE_MAX_ROWS rows of a view only."""
    from leaderboard import selectors

    monkeypatch.setattr(selectors, "SIGNIFICANCE_MAX_ROWS", 2)
    _systems(demo_split, 4)
    rows = client.get("/api/v1/leaderboard/?benchmark=demo&language=overall").json()["rows"]
    assert [r["significance_group"] is None for r in rows] == [False, False, True, True]
    assert all(set(r["significance_group"]["ranks"]) <= {rows[0]["rank"], rows[1]["rank"]} for r in rows[:2])


@pytest.mark.django_db
def test_a_new_result_bootstraps_only_the_pairs_of_its_own_row(client, demo_split, monkeypatch):
    """Issue 14: "the paired-bootstrap tie and group computations done once per result change". Every pair of
    per-task lists is bootstrapped once and kept; a new (last-ranked) system costs its own pairs only."""
    from leaderboard import significance

    _systems(demo_split, 4)
    client.get("/api/v1/leaderboard/?benchmark=demo&language=overall")
    pairs = []
    real = significance.paired_difference_intervals

    def counting(a, others, **kwargs):
        pairs.extend(tuple(b) for b in others)
        return real(a, others, **kwargs)

    monkeypatch.setattr(significance, "paired_difference_intervals", counting)
    names = sorted(demo_split.tasks.values_list("name", flat=True))
    finished_submission(split=demo_split, system_name="last", team=Team.objects.create(name="last"),
                        scores={t: (0, "tests_failed", 1) for t in names})
    rows = client.get("/api/v1/leaderboard/?benchmark=demo&language=overall").json()["rows"]
    assert rows[-1]["system"] == "last" and len(rows) == 5
    zeros = tuple(0.0 for _ in names)
    assert pairs and all(b == zeros for b in pairs) and len(pairs) <= 1 + 4, pairs  # its tie, its 4 group pairs


@pytest.mark.django_db
def test_entries_written_by_another_release_are_never_read(client, demo_split, monkeypatch):
    """A shared cache (Redis) outlives a deploy: the board of a new release never serves what the old code
    rendered, even at the same board version."""
    from catalog.models import System
    from leaderboard import board_cache

    _systems(demo_split, 2)
    url = "/api/v1/leaderboard/?benchmark=demo&language=overall"
    with monkeypatch.context() as old_release:
        old_release.setattr(board_cache, "code_digest", lambda: "0ld0ld0ld0ld0ld0")
        assert "system-00" in [r["system"] for r in client.get(url).json()["rows"]]
        System.objects.filter(name="system-00").update(name="renamed-quietly")  # no signal: the same version
        assert "system-00" in [r["system"] for r in client.get(url).json()["rows"]]
    assert "renamed-quietly" in [r["system"] for r in client.get(url).json()["rows"]]


@pytest.mark.django_db
def test_a_visitor_without_a_session_gets_the_cached_page_and_a_signed_in_one_their_own_frame(client, demo_split):
    _systems(demo_split, 3)
    alice = User.objects.create_user("alice-reader", password="pw")
    client.force_login(alice)
    assert "alice-reader" in client.get("/?benchmark=demo").content.decode()  # filled while signed in
    client.logout()
    client.cookies.clear()
    first = client.get("/?benchmark=demo")
    assert _queries(client, "/?benchmark=demo") == 1  # the board version: the whole page is one cache entry
    page = client.get("/?benchmark=demo").content.decode()
    assert page == first.content.decode() and "alice-reader" not in page and "Log in" in page
    client.force_login(alice)
    assert "alice-reader" in client.get("/?benchmark=demo").content.decode()  # never the anonymous bytes
    client.logout()
    client.cookies.clear()
    finished_submission(split=demo_split, system_name="late-arrival", team=Team.objects.create(name="late"),
                        scores={})
    assert "late-arrival" in client.get("/?benchmark=demo").content.decode()  # a new result: a new page


@pytest.mark.django_db
def test_a_cached_leaderboard_answer_is_served_before_drf_and_is_the_same_answer(client, demo_split):
    _systems(demo_split, 3)
    url = "/api/v1/leaderboard/?benchmark=demo&language=python"
    first = client.get(url)  # computed by DRF, then kept
    assert _queries(client, url) == 1  # the board version: no authentication, serializer or split query
    again = client.get(url)
    assert again.content == first.content and again["Content-Type"] == "application/json"
    assert client.get(url, HTTP_ACCEPT="text/html").status_code == 200  # the browsable API still goes through DRF
    assert client.get(url, HTTP_AUTHORIZATION="Token wrong").status_code == 401  # bad credentials still refused
    assert client.get("/api/v1/leaderboard/?benchmark=demo&language=rust").status_code == 400  # never cached


@pytest.mark.django_db
def test_the_cached_board_page_answer_has_the_views_headers_and_refuses_a_foreign_host(client, demo_split, settings):
    # leaderboard.page_cache answers a visitor's cached page before sessions, CSRF and authentication: the same bytes
    # and the same security headers as the view's own answer, and a Host outside ALLOWED_HOSTS is still a 400.
    _systems(demo_split, 3)
    url = "/?benchmark=demo&sort=pass_at_1"
    first = client.get(url)  # the view renders and caches it
    again = client.get(url)  # the middleware's hit
    assert again.status_code == 200 and again.content == first.content
    for header in ("Content-Type", "Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options",
                   "Referrer-Policy", "Cross-Origin-Opener-Policy"):
        assert again.get(header) == first.get(header) is not None, header
    assert "csrftoken" not in again.cookies and "sessionid" not in again.cookies
    settings.ALLOWED_HOSTS = ["leaderboard.example"]
    assert client.get(url, HTTP_HOST="evil.example").status_code == 400
    assert client.get(url, HTTP_HOST="leaderboard.example").content == first.content
