from django.conf import settings
from django.db import models


class Movie(models.Model):
    title = models.CharField(max_length=255)
    genre = models.CharField(max_length=100)
    year = models.IntegerField()
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, related_name="movies", on_delete=models.CASCADE)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self):
        return f"{self.title} ({self.year})"
