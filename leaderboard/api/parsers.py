"""The API's JSON parser with the limits Django applies to forms (red team of the fresh-user pass: a 60 MB JSON body
to the token endpoint, with no login, was read and parsed in full, 17.5 s and 430 MB of a web worker; a body nested
100,000 deep answered 500 with a RecursionError)."""
from __future__ import annotations

from django.conf import settings
from rest_framework import exceptions, status
from rest_framework.parsers import JSONParser


class PayloadTooLarge(exceptions.APIException):
    """413: the request body is larger than DATA_UPLOAD_MAX_MEMORY_SIZE (bytes)."""

    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "request body too large"
    default_code = "payload_too_large"


class BoundedJSONParser(JSONParser):
    """DRF's JSONParser, refusing a body over settings.DATA_UPLOAD_MAX_MEMORY_SIZE bytes (declared Content-Length)
    before reading it (PayloadTooLarge, 413), and a body nested too deeply to parse (ParseError, 400)."""

    def parse(self, stream, media_type=None, parser_context=None):
        request = (parser_context or {}).get("request")
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        if limit is not None and declared and declared.isdigit() and int(declared) > limit:
            raise PayloadTooLarge(f"request body of {int(declared):,} bytes: JSON bodies are limited to "
                                  f"{limit:,} bytes (archives go as multipart uploads)")
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError("JSON parse error: the body is nested too deeply") from None
