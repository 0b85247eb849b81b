"""Refuses the HTTP methods no page or API view answers (TRACE, TRACK, CONNECT) with 405 before any view runs: TRACE
used to be answered 200 by function views (issue 13, defect 8)."""
from django.http import HttpResponseNotAllowed

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
