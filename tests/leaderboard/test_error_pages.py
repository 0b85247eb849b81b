"""400 / 403 / 404 / 500 pages carry the site's navigation (issue 12), the 500 page renders with no database and no
request, and a refused request is logged as one line, never a traceback (issue 13, defect 8)."""
from __future__ import annotations

import io
import logging

import pytest
from django.test import Client, RequestFactory

NAV = ['class="brand"', 'href="/tasks/"', 'href="/submit/"', 'href="/api/docs/"']


def _has_nav(html: str) -> bool:
    return all(piece in html for piece in NAV)


def test_a_404_has_the_site_navigation_and_says_what_was_not_found(client, db):
    resp = client.get("/no-such-page/")
    page = resp.content.decode()
    assert resp.status_code == 404 and _has_nav(page)
    assert "Page not found" in page and "/no-such-page/" in page and "Resolver404" not in page


def test_a_403_has_the_site_navigation_and_the_reason(client, make_user):
    from catalog.models import System
    from catalog.services import team_for_user

    owner, _ = make_user("owner")
    system = System.objects.create(team=team_for_user(user=owner), name="Owned")
    make_user("intruder")
    client.post("/accounts/login/", {"username": "intruder", "password": "pw-intruder-Secure-123"})
    resp = client.post(f"/systems/{system.pk}/endpoint/", {"url": "https://agent.example.org/"})
    page = resp.content.decode()
    assert resp.status_code == 403 and _has_nav(page)
    assert "Only the system&#x27;s team can do this" in page and "intruder" in page


def test_a_form_post_with_too_many_fields_answers_the_sites_400_page(client, db):
    """Break-it pass 9: more fields than DATA_UPLOAD_MAX_NUMBER_FIELDS answered Django's bare "Bad Request (400)"."""
    resp = client.post("/accounts/login/", {f"field{i}": "x" for i in range(1_200)})
    page = resp.content.decode()
    assert resp.status_code == 400 and _has_nav(page)
    assert "Bad request" in page and "Nothing was stored" in page


def test_the_500_page_has_the_navigation_and_needs_no_database_or_request_context():
    """No `db` fixture: pytest-django refuses every query here, so a template touching the database fails."""
    from django.views.defaults import server_error

    resp = server_error(RequestFactory().get("/"))
    page = resp.content.decode()
    assert resp.status_code == 500 and _has_nav(page) and "Something went wrong on our side" in page


def test_an_error_in_a_view_answers_the_500_page(db, settings):
    settings.ROOT_URLCONF = "tests.leaderboard.urls_failing"
    resp = Client(raise_request_exception=False).get("/boom/")
    assert resp.status_code == 500 and _has_nav(resp.content.decode())


@pytest.fixture
def site_log():
    """What the site's console handler (settings.LOGGING, its filters included) writes during the test."""
    handler = next(h for h in logging.getLogger().handlers
                   if any(type(f).__name__ == "NoClientErrorTraceback" for f in h.filters))
    stream = io.StringIO()
    previous = handler.setStream(stream)
    yield stream
    handler.setStream(previous)


def test_a_403_is_logged_as_one_line_without_a_traceback(client, make_user, site_log):
    from catalog.models import System
    from catalog.services import team_for_user

    owner, _ = make_user("owner")
    system = System.objects.create(team=team_for_user(user=owner), name="Owned")
    make_user("intruder")
    client.post("/accounts/login/", {"username": "intruder", "password": "pw-intruder-Secure-123"})
    assert client.post(f"/systems/{system.pk}/run/", {}).status_code == 403
    logged = site_log.getvalue()
    assert f"Forbidden (Permission denied): POST /systems/{system.pk}/run/ by user 'intruder'" in logged
    assert "Traceback" not in logged and "PermissionDenied" not in logged


def test_a_500_keeps_its_traceback_in_the_log(db, settings, site_log):
    settings.ROOT_URLCONF = "tests.leaderboard.urls_failing"
    Client(raise_request_exception=False).get("/boom/")
    assert "Traceback" in site_log.getvalue() and "RuntimeError: boom" in site_log.getvalue()


def test_a_403_is_one_warning_record_naming_method_path_and_user_without_a_traceback(client, make_user, caplog):
    """Every handler sees the record as the site logs it (Django's own DEBUG console handler on the `django` logger
    printed the traceback the site's console filter removed): one WARNING line, method, path and user, no
    exception attached."""
    from catalog.models import System
    from catalog.services import team_for_user

    owner, _ = make_user("owner")
    system = System.objects.create(team=team_for_user(user=owner), name="Owned")
    intruder, _ = make_user("intruder")
    client.force_login(intruder)
    with caplog.at_level(logging.INFO, logger="django"):
        assert client.post(f"/systems/{system.pk}/run/", {}).status_code == 403
    records = [r for r in caplog.records if r.name.startswith("django") and getattr(r, "status_code", 0) == 403]
    assert len(records) == 1, records
    record = records[0]
    assert record.levelname == "WARNING" and record.exc_info is None and not record.exc_text
    message = record.getMessage()
    assert f"POST /systems/{system.pk}/run/" in message and "intruder" in message and "\n" not in message
    django_handlers = logging.getLogger("django").handlers
    assert not django_handlers, django_handlers  # only the site's handlers (root) write django's records


@pytest.mark.parametrize("path", ["/api/v1/auth/token", "/api/v1/systems", "/signup", "/accounts/login"])
def test_a_write_to_an_address_without_its_slash_is_a_404_naming_the_right_one(client, db, settings, path):
    """Break-it pass 10 of issue 13: with DEBUG on (`make run`), a POST to an address that lacks its trailing slash
    was a 500 (Django's APPEND_SLASH RuntimeError); with DEBUG off, a redirect that lost the body."""
    for debug in (True, False):
        settings.DEBUG = debug
        resp = client.post(path, {"username": "a", "password": "b"})
        assert resp.status_code == 404, (debug, resp.status_code)
        text = resp.content.decode()
        assert f"POST to {path}/ (with its trailing slash)" in text
        assert (resp["Content-Type"] == "application/json") is path.startswith("/api/")
    assert client.get(path).status_code == 301  # a GET is still redirected (APPEND_SLASH)


def test_a_form_that_is_not_utf8_is_a_400_even_with_debug_on(client, db, settings):
    """Break-it pass 11 of issue 13: Django's DEBUG error page read the form again and failed (a 500)."""
    settings.DEBUG = True
    resp = client.post("/signup/", b"username=a&name=b", content_type="application/x-www-form-urlencoded; charset=latin1")
    assert resp.status_code == 400 and "send it encoded as UTF-8" in resp.content.decode()


def test_a_lone_surrogate_echoed_by_an_api_error_is_a_400(client, make_user):
    """Break-it pass 11 of issue 13: `{"type": "\\ud800"}` answered "not a valid choice" with the surrogate in it,
    which the JSON renderer could not encode (a 500)."""
    _, token = make_user("surrogate")
    resp = client.post("/api/v1/systems/", '{"name": "Zsur", "type": "\\ud800"}', content_type="application/json",
                       HTTP_AUTHORIZATION=f"Token {token}")
    assert resp.status_code == 400 and "type" in resp.json()
