"""Refuses a request that holds a NUL character (U+0000) in its path, query string or form fields with 400 before any
view runs. PostgreSQL text cannot hold NUL: a lookup or a save of such a value raised DataError, a blank HTTP 500, on
the board's pages (`?benchmark=x%00y`), a system's API address and the team invitation form (the eighth break-it pass
of issue 13). No name, split, task or text of the board may hold one (catalog.names refuses control characters), so
nothing such a request could name exists. JSON bodies and the API's multipart fields are checked by their serializers
(DRF's CharField refuses NUL)."""
from __future__ import annotations

from urllib.parse import unquote_to_bytes

from django.core.exceptions import BadRequest
from django.http import HttpResponseBadRequest

FORM_ENCODED = "application/x-www-form-urlencoded"
MESSAGE = ("The request holds a NUL character (%00) in its {where}: no name or text of this site holds one. Remove it "
           "and send the request again.")


def _refused(where: str) -> HttpResponseBadRequest:
    return HttpResponseBadRequest(MESSAGE.format(where=where), content_type="text/plain; charset=utf-8")


def _form_holds_nul(request) -> bool:
    return any("\x00" in key or any("\x00" in value for value in values) for key, values in request.POST.lists())


def _unreadable(exc: BadRequest) -> HttpResponseBadRequest:
    """The 400 of a form Django cannot decode (not UTF-8). Answered here: with DEBUG on, Django's error page reads
    the form again and fails, a 500 (break-it pass 11 of issue 13: `&name=\\xff\\xfe` on every page's form)."""
    return HttpResponseBadRequest(f"The form cannot be read ({exc}): send it encoded as UTF-8.",
                                  content_type="text/plain; charset=utf-8")


def null_character_in(request) -> str | None:
    """Where `request` holds a NUL character ("address", "query string" or "form"), or None. The form is read here
    only when it is form-encoded (small: Django bounds it by DATA_UPLOAD_MAX_MEMORY_SIZE); a multipart form is
    checked once it has been read (`RefuseNullCharactersInFormsMiddleware`), never read early: an upload's size is
    checked by its view before its body is read."""
    if "\x00" in request.path:  # the server decoded the address's %00 already
        return "address"
    if b"\x00" in unquote_to_bytes(request.META.get("QUERY_STRING", "")):
        return "query string"
    if request.method == "POST" and request.content_type == FORM_ENCODED and _form_holds_nul(request):
        return "form"
    return None


class RefuseNullCharactersMiddleware:
    """Django middleware, early (before the cached board page, which reads the query): 400 (plain text saying where
    and what to do) for a request `null_character_in` finds a NUL character in."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            where = null_character_in(request)
        except BadRequest as exc:
            return _unreadable(exc)
        return _refused(where) if where is not None else self.get_response(request)


class RefuseNullCharactersInFormsMiddleware:
    """Django middleware, after CsrfViewMiddleware: 400 for a page's POST whose form fields (multipart forms of the
    site's pages: the team invitation, the webhook's secret, a withdrawal's reason) hold a NUL character. Only views
    the CSRF check covers, which reads their form anyway; a view exempt from it (the API's, whose serializers refuse
    NUL) is left unread."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        """None, or the 400 when the already-read form holds a NUL character."""
        try:
            if request.method == "POST" and not getattr(view_func, "csrf_exempt", False) and _form_holds_nul(request):
                return _refused("form")
        except BadRequest as exc:
            return _unreadable(exc)
        return None
