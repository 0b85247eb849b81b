"""Pages of submissions and of a system's agent endpoint (URL names `submissions:*`, kept from before the move)."""
from django.urls import path

from leaderboard.views import submissions as views
from leaderboard.views import agents as agent_views

app_name = "submissions"
urlpatterns = [
    path("submit/", views.submit, name="submit"),
    path("submissions/<int:pk>/", views.detail, name="detail"),
    path("submissions/<int:pk>/cancel/", views.cancel, name="cancel"),
    path("submissions/<int:pk>/withdraw/", views.withdraw, name="withdraw"),
    path("submissions/<int:pk>/status.json", views.status_json, name="status"),
    path("submissions/<int:pk>/report.json", views.report_json, name="report_json"),
    path("submissions/<int:pk>/report.csv", views.report_csv_view, name="report_csv"),
    path("submissions/<int:pk>/archive", views.archive_download, name="archive"),
    path("systems/<int:pk>/endpoint/", agent_views.endpoint_save, name="endpoint_save"),
    path("systems/<int:pk>/endpoint/delete/", agent_views.endpoint_remove, name="endpoint_delete"),
    path("systems/<int:pk>/run/", agent_views.run_start, name="run_start"),
]
