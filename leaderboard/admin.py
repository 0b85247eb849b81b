"""Admin of the site's own table: accounts' e-mail addresses and whether they are verified."""
from django.contrib import admin

from leaderboard.models import AccountEmail


@admin.register(AccountEmail)
class AccountEmailAdmin(admin.ModelAdmin):
    """Search by user or address; see when an address was verified (set only by the owner opening its link)."""

    list_display = ["user", "email", "verified_at", "created_at"]
    list_filter = [("verified_at", admin.EmptyFieldListFilter)]
    search_fields = ["user__username", "email"]
    readonly_fields = ["verified_at", "created_at", "updated_at"]
