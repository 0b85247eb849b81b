"""Paging of every list the API returns (REST_FRAMEWORK["DEFAULT_PAGINATION_CLASS"]).

A list answer is one page: {"count": total items, "next": URL or null, "previous": URL or null, "results": [...]}.
`?page=` picks the page (from 1), `?page_size=` its size: default REST_FRAMEWORK["PAGE_SIZE"] (50), at most
settings.API_MAX_PAGE_SIZE (200; a bigger one is cut to it). A page past the end is 404 {"detail": message}.
drf-spectacular documents the shape (`Paginated...List`) and both parameters for every view that sets
`pagination_class` and answers a `many=True` serializer.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response


class ApiPagination(PageNumberPagination):
    """DRF's page-number paging with the size chosen by `?page_size=` (capped at API_MAX_PAGE_SIZE)."""

    page_size_query_param = "page_size"
    page_size_query_description = "Items per page (default 50, at most 200)."

    @property
    def max_page_size(self) -> int:  # read per request, so a test's settings override applies
        return settings.API_MAX_PAGE_SIZE


def paginated_response(view: Any, request: Request, items: Sequence | Any, render) -> Response:
    """One page of `items` (a queryset or a list) as the paged answer: `render(page_items)` turns the page's items
    into their serialized list. Uses the view's `pagination_class`. Raises rest_framework.exceptions.NotFound for a
    page past the end or a `page` that is not a number."""
    paginator = view.pagination_class()
    page = paginator.paginate_queryset(items, request, view=view)
    return paginator.get_paginated_response(render(page))
