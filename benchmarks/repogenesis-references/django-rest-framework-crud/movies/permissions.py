from rest_framework import permissions


class IsCreator(permissions.BasePermission):
    """Only the user who created a movie may read or change it."""

    def has_object_permission(self, request, view, obj):
        return obj.creator_id == request.user.id
