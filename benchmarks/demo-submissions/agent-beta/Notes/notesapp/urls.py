from django.urls import path

from .views import NoteDetailView, NoteListView, health, tag_counts

urlpatterns = [
    path("health", health),
    path("api/notes", NoteListView.as_view()),
    path("api/notes/<int:pk>", NoteDetailView.as_view()),
    path("api/tags", tag_counts),
]
