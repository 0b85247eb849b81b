from django.urls import path

from . import views

app_name = "submissions"
urlpatterns = [
    path("submit/", views.submit, name="submit"),
    path("submissions/<int:pk>/", views.detail, name="detail"),
    path("submissions/<int:pk>/status.json", views.status_json, name="status"),
    path("submissions/<int:pk>/report.json", views.report_json, name="report_json"),
    path("submissions/<int:pk>/report.csv", views.report_csv_view, name="report_csv"),
]
