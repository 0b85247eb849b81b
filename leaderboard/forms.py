"""Forms for sign-up and systems."""
from django import forms
from django.contrib.auth.forms import UserCreationForm

from catalog.models import System


class SignUpForm(UserCreationForm):
    """Username + password twice (Django's validators)."""


class SystemForm(forms.ModelForm):
    class Meta:
        model = System
        fields = ["name", "agent_framework", "base_model", "type", "url", "description"]
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}
