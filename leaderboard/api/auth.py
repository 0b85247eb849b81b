"""POST /api/v1/auth/token/: a username and password for the account's API token, throttled.

Wrong passwords count towards django-axes' lockout (per account and per address, AXES_* settings), and the view
itself admits AUTH_TOKEN_RATE attempts per address (DRF's ScopedRateThrottle, scope `auth`): guessing a password
through the API is as slow as through the login form.
"""
from collections.abc import Mapping

from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from django.core.cache import caches
from drf_spectacular.utils import extend_schema
from rest_framework.settings import api_settings
from rest_framework import serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import Throttled, ValidationError
from rest_framework.throttling import ScopedRateThrottle

from leaderboard.api.board import ErrorOutputSerializer, bad_request_response


#: The 400's detail for a body that is not an object (break-it pass 7: `[]`, `null`, `"s"` or `5` was a 500).
NOT_AN_OBJECT = "The body must be a JSON object with username and password."


class TokenOutputSerializer(serializers.Serializer):
    """POST /api/v1/auth/token/: the caller's API token, for `Authorization: Token <token>`."""

    token = serializers.CharField()


class AuthRateThrottle(ScopedRateThrottle):
    """DRF's ScopedRateThrottle counting in the throttles' cache (settings.THROTTLE_CACHE_ALIAS: shared by every web
    process, never evicted by the board's entries) instead of DRF's default cache."""

    @property
    def cache(self):
        """The cache of settings.THROTTLE_CACHE_ALIAS (DRF's SimpleRateThrottle reads and writes `self.cache`)."""
        return caches[settings.THROTTLE_CACHE_ALIAS]


def _storable(text: str) -> bool:
    """Whether `text` can be stored or looked up in the database: no NUL character and valid UTF-8 (no lone
    surrogate, which JSON's `\\ud800` escapes can carry)."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class TokenApi(ObtainAuthToken):
    """DRF's token view with a throttle of its own (scope `auth`)."""

    throttle_classes = [AuthRateThrottle]
    throttle_scope = "auth"
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES  # ObtainAuthToken names DRF's unbounded JSONParser

    @extend_schema(operation_id="auth_token_create", tags=["auth"],
                   responses={200: TokenOutputSerializer,
                              400: bad_request_response("a wrong username or password, or a body that is not an "
                                                        "object with username and password"),
                              403: ErrorOutputSerializer, 429: ErrorOutputSerializer})
    def post(self, request, *args, **kwargs):
        """Trade a username and password (form or JSON) for the account's API token, {"token"}; send it as
        `Authorization: Token <token>`. Accounts are made on /signup/. 429 past the rate and while the account
        or the address is locked out after repeated wrong passwords. 400 when the body is not an object (a JSON
        list, string, number or null)."""
        if not isinstance(request.data, Mapping):  # a 500 before (the seventh break-it pass of issue 13)
            raise ValidationError({"detail": NOT_AN_OBJECT})
        try:
            return super().post(request, *args, **kwargs)
        except ValidationError:
            username = request.data.get("username")
            if isinstance(username, str) and not _storable(username):  # no account has it; the database cannot
                raise  # hold it (a NUL; a lone surrogate gave a 500 in the ninth break-it pass of issue 13)
            if not AxesProxyHandler.is_allowed(request, {"username": username}):
                raise Throttled(detail="Too many wrong passwords for this account or address: sign-in is paused "
                                       "for a while; reset the password from the log-in page if you forgot it.")
            raise
