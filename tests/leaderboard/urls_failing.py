"""A URL map whose one view fails, for the tests of the 500 page (tests/leaderboard/test_error_pages.py)."""
from django.urls import include, path


def boom(request):
    """Always raises RuntimeError("boom")."""
    raise RuntimeError("boom")


urlpatterns = [path("boom/", boom), path("", include("config.urls"))]
