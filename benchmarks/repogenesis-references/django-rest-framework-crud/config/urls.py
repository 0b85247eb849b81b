from django.http import JsonResponse
from django.urls import include, path


def index(request):
    return JsonResponse({"service": "movies", "api": "/api/v1/"})


urlpatterns = [
    path("", index),
    path("api/v1/", include("movies.urls")),
]
