"""URL map: pages at /, the API under /api/v1/, offline API docs at /api/docs/."""
from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView

from leaderboard.views.accounts import password_reset

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/password_reset/", password_reset, name="password_reset"),  # rate-limited; before Django's own
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    # Redoc shows its vendor's logo from cdn.redoc.ly: the one image from elsewhere the policy allows, on this page only.
    path("api/docs/", csp_update({"img-src": ["https://cdn.redoc.ly"]})(SpectacularRedocView.as_view(url_name="schema")),
         name="api-docs"),
    path("api/v1/", include("config.api_urls")),
    path("", include("leaderboard.submission_urls")),
    path("", include("leaderboard.urls")),
]
