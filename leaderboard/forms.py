"""Every form of the site: sign-up, systems, the upload, the agent endpoint and endpoint runs."""
from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError

from catalog.models import Split, System, Team
from catalog.selectors import systems_of_user, upload_splits
from catalog.services import system_type_problem
from leaderboard.accounts import (TAKEN, account_name_is_own, email_normalize, email_taken, username_lookalike_refusal,
                                  username_problem)


class SignUpForm(UserCreationForm):
    """Username, e-mail address (to verify; one account per address, case-insensitively) and password twice
    (Django's validators). The address is not put on the user here: leaderboard.accounts stores it to verify."""

    email = forms.EmailField(max_length=254, label="E-mail address",
                             help_text="We mail you a link to verify it; it is how you reset a forgotten password. "
                                       "Never shown on the site.",
                             widget=forms.EmailInput(attrs={"autocomplete": "email"}))

    field_order = ["username", "email", "password1", "password2"]

    def clean_email(self) -> str:
        """The normalised address; refused when another account holds it."""
        email = email_normalize(self.cleaned_data["email"])
        if email_taken(email):
            raise forms.ValidationError(TAKEN)
        return email

    def clean_username(self) -> str:
        """Django's checks, then leaderboard.accounts.username_problem (look-alikes, reserved names, hidden
        characters)."""
        username = super().clean_username()  # None when Django refused it (taken in another letter case)
        problem = username_problem(username) if username else None
        if problem:
            raise forms.ValidationError(problem)
        return username

    def save(self, commit: bool = True):
        """The new user (saved when `commit`). Raises ValidationError({"username": ...}) when, saved, its name turns
        out to look like another user's stored meanwhile (a concurrent sign-up: leaderboard.accounts.
        account_name_is_own); the caller's transaction (leaderboard.accounts.account_create) then rolls the account
        back."""
        user = super().save(commit=commit)
        if commit and not account_name_is_own(user):
            raise ValidationError({"username": username_lookalike_refusal(user.username)})
        return user


class AccountEmailForm(forms.Form):
    """The account page's address: a new one to verify (or the same one, to send its link again)."""

    email = forms.EmailField(max_length=254, label="E-mail address",
                             widget=forms.EmailInput(attrs={"autocomplete": "email"}))


class SystemForm(forms.ModelForm):
    """A system's fields, for `user`: a staff-only type (catalog.services.STAFF_ONLY_TYPES, the oracle) is offered
    to staff only, or when the system has it already, and refused with the reason otherwise."""

    class Meta:
        model = System
        fields = ["name", "agent_framework", "base_model", "type", "url", "source_url", "description"]
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}
        error_messages = {"name": {
            "required": "Give the system a name.",
            "max_length": "A name has at most %(limit_value)d characters; this one has %(show_value)d.",
        }}

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        self.current_type = self.instance.type if self.instance.pk else None
        field = self.fields["type"]
        field.widget.choices = [(value, label) for value, label in field.choices
                                if system_type_problem(user=user, type=value, current=self.current_type) is None]

    def _update_errors(self, errors) -> None:
        """One message per problem: a field the form refused already (empty, too long) keeps the form's message.
        The model's clean() sees such a field unset and would add a second message that does not apply ("Give
        the system a name." under a name that is too long)."""
        if hasattr(errors, "error_dict"):
            kept = {field: found for field, found in errors.error_dict.items() if field not in self._errors}
            if not kept:
                return
            errors = forms.ValidationError(kept)
        super()._update_errors(errors)

    def clean_type(self) -> str:
        value = self.cleaned_data["type"]
        problem = system_type_problem(user=self.user, type=value, current=self.current_type)
        if problem:
            raise forms.ValidationError(problem)
        return value


class SystemCreateForm(SystemForm):
    """A new system, for one of the user's teams (the choice is shown only to members of several teams)."""

    team = forms.ModelChoiceField(queryset=Team.objects.none(), required=False,
                                  help_text="the team that owns it: its members submit for it, under its quota")

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, user=user, **kwargs)
        teams = user.teams.order_by("name")
        self.fields["team"].queryset = teams
        if teams.count() <= 1:
            del self.fields["team"]


class SplitChoiceField(forms.ModelChoiceField):
    """A split that takes uploads, shown as `Benchmark title (name) / split · N tasks`."""

    def label_from_instance(self, split: Split) -> str:
        bench = split.benchmark
        title = f"{bench.title} ({bench.name})" if bench.title and bench.title != bench.name else bench.name
        count = getattr(split, "task_count", None)
        return f"{title} / {split.name}" + (f" · {count} task{'s' if count != 1 else ''}" if count is not None else "")


class SubmissionForm(forms.Form):
    """Pick one of your team's systems, the benchmark and split the archive is scored on (one of the splits that
    take uploads, catalog.selectors.upload_splits; like the API's `benchmark` and `split`, the site's default
    split when none is posted) and an archive (.zip or .tar.gz, one folder per task).

    `default_split`: the split preselected (the site's default, or the one the page's query string named)."""

    system = forms.ModelChoiceField(queryset=System.objects.none())
    split = SplitChoiceField(queryset=Split.objects.none(), required=False, empty_label=None,
                             label="Benchmark and split",
                             help_text="the tasks the archive is scored on (only splits whose READMEs are "
                                       "published take uploads)")
    archive = forms.FileField(help_text=".zip or .tar.gz with one folder per task, named exactly as the task")
    note = forms.CharField(required=False, max_length=300)
    is_public = forms.BooleanField(required=False, initial=True, label="Show on the public leaderboard")
    allow_missing = forms.BooleanField(required=False, label="Queue it even if tasks are missing",
                                       help_text="missing tasks score 0; without this, an archive lacking tasks is "
                                                 "refused with the list of them")

    def __init__(self, *args, user, default_split: Split | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        systems = systems_of_user(user=user)
        self.fields["system"].queryset = systems
        if systems.count() == 1:
            self.fields["system"].initial = systems.first()
        self.default_split = default_split
        self.fields["split"].queryset = upload_splits()
        self.fields["split"].initial = default_split

    def clean_split(self) -> Split:
        """The chosen split, else `default_split`. Raises ValidationError when neither is there (no split takes
        uploads)."""
        split = self.cleaned_data.get("split") or self.default_split
        if split is None:
            raise forms.ValidationError("No benchmark split takes uploads on this site yet.")
        return split


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
