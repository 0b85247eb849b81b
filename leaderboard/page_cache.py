"""The board page's cached answer for visitors without a session, and the leaderboard API's cached JSON answer,
served before the rest of the middleware stack (issue 14, "a fast board": their throughput against whitenoise
serving the same bytes as a file).

The page itself is cached by leaderboard.views.pages.home (per board version and query string); this middleware
only reads that entry earlier, right after WhiteNoise, so a hit skips the session, CSRF, authentication, messages
and lockout middlewares, URL resolution and the view. The middlewares above it still run on the answer
(ClientAddress, RefuseTrace, Security, CSP, X-Frame-Options: settings.MIDDLEWARE puts X-Frame-Options above it), so
its headers are those of the view's own answer; a miss, a signed-in visitor or any other request goes down the
stack as before.
"""
from __future__ import annotations

from collections.abc import Callable

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from leaderboard.api.board import LeaderboardApi
from leaderboard.board_cache import board_key, cached_json_answer
from leaderboard.views.pages import anonymous_page_key, visitor_cookies_without_state


class CachedBoardPageMiddleware:
    """Answer GET and HEAD of the board page (`/`, any query string) from the cache when the request carries no
    session or messages cookie and the page is cached at the current board version (one query: the version), and
    of `/api/v1/leaderboard/` when its JSON answer is cached and the request may have it as it is
    (leaderboard.board_cache.cached_json_answer: no credentials, JSON accepted); otherwise call the next
    middleware. Never writes the cache (the views do). Raises DisallowedHost (Django answers 400) for a Host
    header outside ALLOWED_HOSTS, as the views' path would."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.path = reverse("leaderboard:home")
        self.api_path = reverse("api-leaderboard")

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in ("GET", "HEAD"):
            found = self._cached(request)
            if found is not None:
                return found
        return self.get_response(request)

    def _cached(self, request: HttpRequest) -> HttpResponse | None:
        if request.path_info == self.path and visitor_cookies_without_state(request):
            request.get_host()  # DisallowedHost (400) for a Host not in ALLOWED_HOSTS, as CommonMiddleware would
            body = cache.get(board_key(*anonymous_page_key(request)))
            return _with_length(HttpResponse(body)) if body is not None else None
        if request.path_info == self.api_path:
            request.get_host()
            found = cached_json_answer(request, LeaderboardApi.answer_key_parts(request.GET))
            return _with_length(found) if found is not None else None
        return None


def _with_length(response: HttpResponse) -> HttpResponse:
    """`response` with its Content-Length, which CommonMiddleware (below this one) sets on the view's answers: without
    it gunicorn sends the body chunked."""
    response["Content-Length"] = str(len(response.content))
    return response
