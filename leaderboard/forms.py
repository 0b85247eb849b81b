"""Every form of the site: sign-up, systems, the upload, the agent endpoint and endpoint runs."""
from django import forms
from django.contrib.auth.forms import UserCreationForm

from catalog.models import Split, System
from catalog.selectors import systems_of_user


class SignUpForm(UserCreationForm):
    """Username + password twice (Django's validators)."""


class SystemForm(forms.ModelForm):
    class Meta:
        model = System
        fields = ["name", "agent_framework", "base_model", "type", "url", "description"]
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}


class SubmissionForm(forms.Form):
    """Pick one of your team's systems and an archive (.zip or .tar.gz, one folder per task)."""

    system = forms.ModelChoiceField(queryset=System.objects.none())
    archive = forms.FileField(help_text=".zip or .tar.gz with one folder per task, named exactly as the task")
    note = forms.CharField(required=False, max_length=300)
    is_public = forms.BooleanField(required=False, initial=True, label="Show on the public leaderboard")

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        systems = systems_of_user(user=user)
        self.fields["system"].queryset = systems
        if systems.count() == 1:
            self.fields["system"].initial = systems.first()


class EndpointForm(forms.Form):
    """The agent's URL and its bearer secret (blank keeps the registered one)."""

    url = forms.CharField(label="Endpoint URL", max_length=500,
                          widget=forms.TextInput(attrs={"placeholder": "https://agent.example.org/generate"}))
    secret = forms.CharField(label="Secret", required=False, max_length=500,
                             widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "new-password"}),
                             help_text="Sent as Authorization: Bearer <secret>. Leave blank to keep the current one.")


class RunForm(forms.Form):
    """Which split to generate and score."""

    split = forms.ModelChoiceField(queryset=Split.objects.none())
    note = forms.CharField(required=False, max_length=300)
    is_public = forms.BooleanField(required=False, initial=True, label="Show on the public leaderboard")

    def __init__(self, *args, splits, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["split"].queryset = splits
