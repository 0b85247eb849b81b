from django.urls import path, re_path

from leaderboard.views import accounts as account_views
from leaderboard.views import docs as docs_views
from leaderboard.views import pages as views
from leaderboard.views import research as research_views
from leaderboard.views import teams as team_views

app_name = "leaderboard"
urlpatterns = [
    path("", views.home, name="home"),
    path("tasks/", views.task_list, name="tasks"),
    path("reported/", views.reported, name="reported"),
    path("tasks/<str:name>/", views.task_detail, name="task"),
    path("systems/new/", views.system_new, name="system_new"),
    path("systems/<int:pk>/", views.system_detail, name="system"),
    path("systems/<int:pk>/edit/", views.system_edit, name="system_edit"),
    path("systems/<int:pk>/delete/", views.system_remove, name="system_delete"),
    path("signup/", views.signup, name="signup"),
    path("teams/", team_views.team_list, name="teams"),
    path("teams/<int:pk>/", team_views.team_detail, name="team"),
    path("teams/<int:pk>/invite/", team_views.team_invite_view, name="team_invite"),
    path("teams/<int:pk>/rename/", team_views.team_rename_view, name="team_rename"),
    path("teams/<int:pk>/leave/", team_views.team_leave_view, name="team_leave"),
    # only the two answers: any other word read as "decline" (the ninth break-it pass of issue 13)
    re_path(r"^invitations/(?P<pk>[0-9]+)/(?P<answer>accept|decline)/$", team_views.invitation_answer_view,
            name="invitation_answer"),
    path("teams/<int:pk>/webhook/", team_views.webhook_save, name="team_webhook"),
    path("teams/<int:pk>/webhook/delete/", team_views.webhook_delete, name="team_webhook_delete"),
    path("account/", account_views.account, name="account"),
    path("account/email/verify/<str:token>/", account_views.email_verify, name="email_verify"),
    path("compare/", research_views.compare, name="compare"),
    path("matrix/", research_views.matrix, name="matrix"),
    path("data/", research_views.data, name="data"),
    path("docs/", docs_views.docs_index, name="docs"),
    path("docs/<slug:slug>/", docs_views.doc_page, name="doc"),
]
