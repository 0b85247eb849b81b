"""Content-Security-Policy (issue 13, defect 8): every answer carries a policy that lets scripts come from this
site only (our static/js/ and plotly.js from static/plotly/), with no inline script and no eval; every page's
<script> elements either load a file of the site or hold JSON data. In Chromium: tests/leaderboard/test_csp_browser.py."""
from __future__ import annotations

import re

import pytest
from django.core.cache import cache

from tests.factories import finished_submission

SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.S | re.I)


def _policy(resp) -> dict[str, list[str]]:
    header = resp["Content-Security-Policy"]
    return {d.split()[0]: d.split()[1:] for d in (part.strip() for part in header.split(";")) if d}


def test_every_answer_carries_a_policy_that_allows_only_the_sites_scripts(client, db):
    for url in ["/", "/api/v1/systems/", "/no-such-page/", "/accounts/login/"]:
        policy = _policy(client.get(url))
        assert policy["script-src"] == ["'self'"], url
        assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
        assert policy["frame-ancestors"] == ["'none'"] and policy["base-uri"] == ["'self'"]
        assert not any("unsafe" in v for v in policy["script-src"] + policy["default-src"])


@pytest.fixture
def site(demo_split, make_user, client):
    """A board with two scored systems, a queued submission of alice's, alice logged in."""
    cache.clear()
    user, _ = make_user("alice")
    done = finished_submission(split=demo_split, system_name="Inline A", scores={"TodoList": (17, "passed", 1)},
                               team=user.teams.get())
    finished_submission(split=demo_split, system_name="Inline B", scores={"Notes": (3, "tests_failed", 1)},
                        team=user.teams.get())
    client.post("/accounts/login/", {"username": "alice", "password": "pw-alice-Secure-123"})
    done.queued = _queued(demo_split, done.system)
    return done


def _queued(split, system):
    """A submission of `system` waiting for a worker (its page polls the status JSON)."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from evaluation.services import submission_create
    from submissions.archives import zip_folders

    import tempfile
    from pathlib import Path

    folder = Path(tempfile.mkdtemp(prefix="rg-queued-"))
    (folder / "start.sh").write_text("#!/bin/sh\necho queued\n")
    archive = zip_folders({"Notes": folder})
    return submission_create(system=system, split=split, upload=SimpleUploadedFile("q.zip", archive), user=None,
                             enqueue=False)


def test_no_page_has_an_inline_script(client, site, demo_split):
    from catalog.models import System

    pages = ["/", "/?language=java", "/tasks/", "/tasks/TodoList/", "/compare/", "/matrix/", "/data/", "/reported/",
             "/submit/", f"/submissions/{site.pk}/", f"/submissions/{site.queued.pk}/", f"/systems/{site.system.pk}/",
             f"/systems/{System.objects.get(name='Inline B').pk}/", "/systems/new/", "/account/",
             "/accounts/password_change/", "/api/docs/", "/no-such-page/"]
    client.logout()
    pages_anonymous = ["/accounts/login/", "/signup/", "/accounts/password_reset/"]
    seen = 0
    for anonymous, urls in [(True, pages_anonymous), (False, pages)]:
        if not anonymous:
            client.post("/accounts/login/", {"username": "alice", "password": "pw-alice-Secure-123"})
        for url in urls:
            resp = client.get(url)
            assert resp.status_code in (200, 404), url
            for attrs, body in SCRIPT.findall(resp.content.decode()):
                seen += 1
                if 'type="application/json"' in attrs:
                    continue  # data (json_script), not code
                assert "src=" in attrs and not body.strip(), f"inline script on {url}: {body[:80]!r}"
                src = re.search(r'src="([^"]+)"', attrs).group(1)
                assert src.startswith("/static/"), f"{url} loads a script from elsewhere: {src}"
    assert seen > 10
