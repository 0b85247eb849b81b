"""Forms of the system page: register the agent endpoint, start a run on a split."""
from django import forms

from catalog.models import Split


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
