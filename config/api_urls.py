"""The /api/v1/ routes (DRF; schema by drf-spectacular)."""
from django.urls import path

from leaderboard.api import agents as agents_api
from leaderboard.api import auth as auth_api
from leaderboard.api import board as leaderboard_api
from leaderboard.api import research as research_api
from leaderboard.api import root as root_api
from leaderboard.api import submissions as submissions_api
from leaderboard.api import teams as teams_api

urlpatterns = [
    path("", root_api.ApiRoot.as_view(), name="api-root"),
    path("auth/token/", auth_api.TokenApi.as_view(), name="api-token"),
    path("leaderboard/", leaderboard_api.LeaderboardApi.as_view(), name="api-leaderboard"),
    path("tasks/", leaderboard_api.TaskListApi.as_view(), name="api-tasks"),
    path("reported/", leaderboard_api.ReportedApi.as_view(), name="api-reported"),
    path("compare/", research_api.CompareApi.as_view(), name="api-compare"),
    path("matrix/", research_api.MatrixApi.as_view(), name="api-matrix"),
    path("cite/", research_api.CiteApi.as_view(), name="api-cite"),
    path("export/board.json", research_api.BoardExportJsonApi.as_view(), name="api-export-board-json"),
    path("export/board.csv", research_api.BoardExportCsvApi.as_view(), name="api-export-board-csv"),
    path("export/results.csv", research_api.ResultsExportCsvApi.as_view(), name="api-export-results-csv"),
    path("systems/", leaderboard_api.SystemListCreateApi.as_view(), name="api-systems"),
    path("systems/<str:ref>/", leaderboard_api.SystemDetailApi.as_view(), name="api-system"),
    path("systems/<str:ref>/history/", research_api.SystemHistoryApi.as_view(), name="api-system-history"),
    path("systems/<str:ref>/endpoint/", agents_api.EndpointApi.as_view(), name="api-system-endpoint"),
    path("systems/<str:ref>/runs/", agents_api.SystemRunApi.as_view(), name="api-system-runs"),
    path("submissions/", submissions_api.SubmissionListCreateApi.as_view(), name="api-submissions"),
    path("quota/", submissions_api.QuotaApi.as_view(), name="api-quota"),
    path("teams/", teams_api.TeamListApi.as_view(), name="api-teams"),
    path("teams/<int:pk>/", teams_api.TeamDetailApi.as_view(), name="api-team"),
    path("teams/<int:pk>/leave/", teams_api.TeamLeaveApi.as_view(), name="api-team-leave"),
    path("teams/<int:pk>/invitations/", teams_api.TeamInvitationsApi.as_view(), name="api-team-invitations"),
    path("invitations/", teams_api.MyInvitationsApi.as_view(), name="api-invitations"),
    path("invitations/<int:pk>/accept/", teams_api.InvitationAcceptApi.as_view(), name="api-invitation-accept"),
    path("invitations/<int:pk>/decline/", teams_api.InvitationDeclineApi.as_view(), name="api-invitation-decline"),
    path("teams/<int:pk>/webhook/", teams_api.WebhookApi.as_view(), name="api-team-webhook"),
    path("teams/<int:pk>/webhook/deliveries/", teams_api.DeliveryListApi.as_view(), name="api-team-deliveries"),
    path("submissions/<int:pk>/", submissions_api.SubmissionDetailApi.as_view(), name="api-submission"),
    path("submissions/<int:pk>/cancel/", submissions_api.SubmissionCancelApi.as_view(), name="api-submission-cancel"),
    path("submissions/<int:pk>/withdraw/", submissions_api.SubmissionWithdrawApi.as_view(),
         name="api-submission-withdraw"),
    path("submissions/<int:pk>/report.json", submissions_api.SubmissionReportJsonApi.as_view(),
         name="api-submission-report-json"),
    path("submissions/<int:pk>/archive", submissions_api.SubmissionArchiveApi.as_view(), name="api-submission-archive"),
    path("submissions/<int:pk>/report.csv", submissions_api.SubmissionReportCsvApi.as_view(),
         name="api-submission-report-csv"),
]
