from django.contrib import admin

from .models import AgentEndpoint


@admin.register(AgentEndpoint)
class AgentEndpointAdmin(admin.ModelAdmin):
    """The secret is never shown, only its last 4 characters; teams change it on their system page."""

    list_display = ("system", "url", "secret_hint", "updated_at")
    fields = ("system", "url", "secret_hint", "updated_by", "created_at", "updated_at")
    readonly_fields = ("secret_hint", "updated_by", "created_at", "updated_at")
