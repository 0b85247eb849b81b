from django.contrib.auth import get_user_model
from rest_framework import generics, permissions

from .models import Movie
from .permissions import IsCreator
from .serializers import MovieSerializer, RegisterSerializer


class RegisterView(generics.CreateAPIView):
    queryset = get_user_model().objects.all()
    serializer_class = RegisterSerializer
    permission_classes = [permissions.AllowAny]
    authentication_classes = []


class MovieListCreateView(generics.ListCreateAPIView):
    serializer_class = MovieSerializer
    permission_classes = [permissions.IsAuthenticated]

    def get_queryset(self):
        qs = Movie.objects.filter(creator=self.request.user)
        title = self.request.query_params.get("title")
        if title:
            qs = qs.filter(title__icontains=title)
        return qs

    def perform_create(self, serializer):
        serializer.save(creator=self.request.user)


class MovieDetailView(generics.RetrieveUpdateDestroyAPIView):
    serializer_class = MovieSerializer
    permission_classes = [permissions.IsAuthenticated, IsCreator]

    def get_queryset(self):
        return Movie.objects.filter(creator=self.request.user)
