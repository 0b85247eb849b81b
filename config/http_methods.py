"""Refuses the HTTP methods no page or API view answers (TRACE, TRACK, CONNECT) with 405 before any view runs: TRACE
used to be answered 200 by function views (issue 13, defect 8). Answers a write to an address that lacks its
trailing slash with a 404 that names the right address (`SlashRequiredMiddleware`)."""
from django.http import Http404, HttpResponseNotAllowed, JsonResponse
from django.middleware.common import CommonMiddleware
from django.views.defaults import page_not_found

REFUSED = frozenset({"TRACE", "TRACK", "CONNECT"})
ALLOWED = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


class RefuseTraceMiddleware:
    """Django middleware: 405 (with the Allow header) for REFUSED methods."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in REFUSED:
            return HttpResponseNotAllowed(ALLOWED)
        return self.get_response(request)


class SlashRequiredMiddleware:
    """Django middleware, before CommonMiddleware: a POST, PUT, PATCH or DELETE to an address that exists only with a
    trailing slash is a 404 saying so (JSON under /api/, the site's 404 page elsewhere). CommonMiddleware would
    redirect it, which loses the body, and with DEBUG on raises a RuntimeError instead (a 500: break-it pass 10
    of issue 13, `POST /api/v1/auth/token`). GET and HEAD keep CommonMiddleware's redirect (Django's APPEND_SLASH)."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.common = CommonMiddleware(get_response)

    def __call__(self, request):
        if request.method not in ("GET", "HEAD", "OPTIONS") and self.common.should_redirect_with_slash(request):
            message = (f"No such address: {request.method} to {request.path}/ (with its trailing slash), not "
                       f"{request.path}.")
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": message}, status=404)
            return page_not_found(request, Http404(message))
        return self.get_response(request)
