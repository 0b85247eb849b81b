"""The API's one exception handler (REST_FRAMEWORK["EXCEPTION_HANDLER"]): our domain errors become HTTP answers
here, in one place, so API views raise them and never catch them to build an error response by hand.

| raised                                                   | status | body                                    |
|----------------------------------------------------------|--------|-----------------------------------------|
| submissions.services.QuotaExceeded                       | 429    | {"detail": message, "quota": {...}}     |
| submissions.services.SubmissionStateError                | 409    | {"detail": message}                     |
| PermissionError (a service's "not your team's")          | 403    | {"detail": message}                     |
| submissions.services.SubmissionError (and EndpointError) | 400    | {"detail": message}                     |
| catalog.selectors.NotFound                               | 404    | {"detail": message}                     |
| catalog.services.TeamError                               | 400    | {"detail": message}                     |
| django ValidationError with field errors                 | 400    | {field: [messages]} (like a serializer) |
| django ValidationError without field                     | 400    | {"detail": messages joined by a space}  |

Everything else goes to DRF's own handler unchanged (its APIExceptions, Http404, PermissionDenied; None, that is
a 500, for the rest). Every mapped error rolls back the request's atomic block, as DRF's handler does.
"""
from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from catalog.selectors import NotFound
from catalog.services import TeamError
from submissions.services import QuotaExceeded, SubmissionError, SubmissionStateError


class BadRequest(exceptions.APIException):
    """400 with {"detail": message}: a refused input (DRF's ValidationError would render a bare list)."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = "Bad request."
    default_code = "bad_request"


class QuotaExceededError(exceptions.APIException):
    """429 with {"detail": message, "quota": {"limit", "used", "remaining", "next_at"}}: the team used its
    evaluations of the last 24 hours (`quota`: submissions.quota.QuotaStatus.as_dict; `next_at` is when the next
    submission is possible)."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_detail = "Submission quota exceeded."
    default_code = "quota_exceeded"

    def __init__(self, detail: str, quota: dict | None = None) -> None:
        super().__init__(detail)
        self.quota = quota


class StateConflict(exceptions.APIException):
    """409 with {"detail": message}: the submission or system is not in a state that allows the action."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = "Conflict."
    default_code = "conflict"


def api_error(exc: Exception) -> exceptions.APIException | None:
    """The DRF exception a domain error stands for (table of the module docstring), or None when `exc` is not one
    of ours. Order matters: QuotaExceeded is a SubmissionError."""
    if isinstance(exc, QuotaExceeded):
        return QuotaExceededError(str(exc), exc.quota.as_dict() if exc.quota else None)
    if isinstance(exc, SubmissionStateError):
        return StateConflict(str(exc))
    if isinstance(exc, SubmissionError):
        return BadRequest(str(exc))
    if isinstance(exc, NotFound):
        return exceptions.NotFound(str(exc))
    if isinstance(exc, TeamError):
        return BadRequest(str(exc))
    if isinstance(exc, PermissionError):
        return exceptions.PermissionDenied(str(exc))
    if isinstance(exc, DjangoValidationError):
        if hasattr(exc, "error_dict"):
            return exceptions.ValidationError(exc.message_dict)
        return BadRequest(" ".join(exc.messages))
    return None


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """REST_FRAMEWORK["EXCEPTION_HANDLER"]: maps our domain errors (`api_error`), then lets DRF's default handler
    render: {"detail": message} (or field errors) with the status, or None (a 500) for an unknown exception."""
    mapped = api_error(exc)
    response = drf_exception_handler(mapped if mapped is not None else exc, context)
    if isinstance(mapped, QuotaExceededError) and mapped.quota is not None and response is not None:
        response.data["quota"] = mapped.quota
    return response
