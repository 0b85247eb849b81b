"""URL map: pages at /, the API under /api/v1/, offline API docs at /api/docs/."""
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularRedocView.as_view(url_name="schema"), name="api-docs"),
    path("api/v1/", include("config.api_urls")),
    path("", include("leaderboard.submission_urls")),
    path("", include("leaderboard.urls")),
]
