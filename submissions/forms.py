"""The upload form."""
from django import forms

from catalog.models import System


class SubmissionForm(forms.Form):
    """Pick one of your team's systems and an archive (.zip or .tar.gz, one folder per task)."""

    system = forms.ModelChoiceField(queryset=System.objects.none())
    archive = forms.FileField(help_text=".zip or .tar.gz with one folder per task, named exactly as the task")
    note = forms.CharField(required=False, max_length=300)
    is_public = forms.BooleanField(required=False, initial=True, label="Show on the public leaderboard")

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        systems = System.objects.filter(team__members=user)
        self.fields["system"].queryset = systems
        if systems.count() == 1:
            self.fields["system"].initial = systems.first()
