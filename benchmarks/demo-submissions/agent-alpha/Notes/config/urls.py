from django.urls import path

from notes import views

urlpatterns = [
    path("health", views.health),
    path("api/notes", views.notes_collection),
    path("api/notes/<int:pk>", views.note_item),
    path("api/tags", views.tags),
]
