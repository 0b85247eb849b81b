from django.urls import path

from . import views

urlpatterns = [
    path("health", views.Health.as_view()),
    path("api/notes", views.NoteList.as_view()),
    path("api/notes/<int:note_id>", views.NoteDetail.as_view()),
    path("api/tags", views.TagList.as_view()),
]
