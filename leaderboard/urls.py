from django.urls import path

from leaderboard.views import pages as views
from leaderboard.views import research as research_views

app_name = "leaderboard"
urlpatterns = [
    path("", views.home, name="home"),
    path("tasks/", views.task_list, name="tasks"),
    path("reported/", views.reported, name="reported"),
    path("tasks/<str:name>/", views.task_detail, name="task"),
    path("systems/new/", views.system_new, name="system_new"),
    path("systems/<int:pk>/", views.system_detail, name="system"),
    path("signup/", views.signup, name="signup"),
    path("compare/", research_views.compare, name="compare"),
    path("matrix/", research_views.matrix, name="matrix"),
    path("data/", research_views.data, name="data"),
]
