"""Benchmarks, their tasks and splits, and the systems that teams enter.

A `Benchmark` row is one *version* of a named benchmark (docs/benchmark-format.md "Benchmark version": a sha256
over every task's README, hidden tests and metadata). Re-importing a changed folder creates a new row
and marks it current; results keep the version they were scored on.
"""
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from . import names

from core.engine.runner_env import fix_pytest_args


class Language(models.TextChoices):
    PYTHON = "python", "Python"
    JAVA = "java", "Java"


class ReferenceStatus(models.TextChoices):
    """What the checks of a task's reference solution found (docs/scoring.md "Task defects"): every run passed its
    own suite, some did (`flaky`), none did (`failed`), no reference is shipped (`none`), or not checked yet."""

    UNCHECKED = "unchecked", "Not checked yet"
    PASSED = "passed", "Passes its suite"
    FLAKY = "flaky", "Flaky"
    FAILED = "failed", "Fails its suite"
    NONE = "none", "No reference shipped"


class Benchmark(models.Model):
    """One version of a named benchmark (e.g. `demo`, `repogenesis`)."""

    name = models.SlugField(max_length=64)
    title = models.CharField(max_length=200, blank=True)
    version = models.CharField(max_length=64, help_text="sha256 over READMEs, hidden tests and metadata")
    is_current = models.BooleanField(default=True)
    storage_dir = models.CharField(max_length=500, help_text="private folder under BENCHMARK_ROOT")
    info = models.JSONField(default=dict, blank=True, help_text="manifest facts: paper, source, licence, ...")
    imported_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "leaderboard_benchmark"  # the table of the app this model came from (catalog 0001)
        constraints = [models.UniqueConstraint(fields=["name", "version"], name="benchmark_name_version")]
        ordering = ["name", "-imported_at"]

    def __str__(self) -> str:
        return f"{self.name}@{self.version[:12]}"


class Task(models.Model):
    """One requirement document with its hidden tests (docs/benchmark-format.md "One task = one folder")."""

    benchmark = models.ForeignKey(Benchmark, on_delete=models.CASCADE, related_name="tasks")
    name = models.CharField(max_length=200)
    language = models.CharField(max_length=16, choices=Language.choices)
    port = models.PositiveIntegerField()
    framework = models.CharField(max_length=64, blank=True)
    framework_guessed = models.BooleanField(default=False)
    domain = models.CharField(max_length=64, blank=True)
    readme = models.TextField()
    declared_endpoints = models.JSONField(default=list, help_text='[{"method": "GET", "path": "/x/{param}"}]')
    tests_total = models.PositiveIntegerField(default=0)
    handout_files = models.JSONField(default=dict, help_text="files given to agents with the README, {path: text}")
    has_reference = models.BooleanField(default=False)
    reference_status = models.CharField(max_length=32, choices=ReferenceStatus.choices,
                                        default=ReferenceStatus.UNCHECKED)
    reference_detail = models.CharField(max_length=500, blank=True)
    reference_runs = models.JSONField(default=list, blank=True,
                                      help_text='reference checks: [{"passed", "total", "outcome", "seconds"}]')
    port_source = models.CharField(max_length=300, blank=True, help_text="the README line (or file) that gave the port")
    suite_kind = models.CharField(max_length=32, blank=True, help_text="black-box HTTP, white-box or in-process")
    fixes = models.JSONField(default=list, blank=True, help_text='documented fixes: [{"kind", "args", "why"}]')
    defects = models.JSONField(default=list, blank=True, help_text='defect notes: [{"kind", "text", "source"}]')
    bundle_sha256 = models.CharField(max_length=64, blank=True,
                                     help_text="sha256 of the task's private files bundle (catalog.bundles), stored "
                                               "as bundles/<sha256>.tar.gz in the benchmarks storage")

    class Meta:
        db_table = "leaderboard_task"  # the table of the app this model came from (catalog 0001)
        constraints = [models.UniqueConstraint(fields=["benchmark", "name"], name="task_benchmark_name")]
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_excluded(self) -> bool:
        """True when the task has no hidden test (N = 0) and is left out of its split's means (docs/scoring.md
        "Metrics per task")."""
        return self.tests_total == 0

    @property
    def pytest_args(self) -> tuple[str, ...]:
        """Every pytest argument the documented fixes add."""
        return fix_pytest_args(self.fixes)

    @property
    def is_flagged(self) -> bool:
        """True when the task cannot be trusted: no hidden test, or its reference fails its own suite."""
        return self.tests_total == 0 or self.reference_status in (ReferenceStatus.FAILED, ReferenceStatus.FLAKY)


class Split(models.Model):
    """A subset of a benchmark's tasks; leaderboards are per split.

    `visibility`: `public` (READMEs published, archive uploads and endpoint runs accepted), `endpoint-only`
    (READMEs never published; only agent-endpoint runs, where the platform hands each README to the agent
    itself), `hidden` (neither: no README published, no upload; endpoint runs by admins only).
    """

    class Visibility(models.TextChoices):
        PUBLIC = "public", "Public"
        ENDPOINT_ONLY = "endpoint-only", "Endpoint only"
        HIDDEN = "hidden", "Hidden"

    benchmark = models.ForeignKey(Benchmark, on_delete=models.CASCADE, related_name="splits")
    name = models.SlugField(max_length=64)
    tasks = models.ManyToManyField(Task, related_name="splits")
    visibility = models.CharField(max_length=16, choices=Visibility.choices, default=Visibility.PUBLIC)

    class Meta:
        db_table = "leaderboard_split"  # the table of the app this model came from (catalog 0001)
        constraints = [models.UniqueConstraint(fields=["benchmark", "name"], name="split_benchmark_name")]

    def __str__(self) -> str:
        return f"{self.benchmark.name}/{self.name}"


def _skeleton_to_store(instance: models.Model) -> str:
    """The name skeleton to save with a Team or System: its name's (catalog.names.name_skeleton), unless the name is
    the one stored, whose skeleton is kept as stored (a row of two names that came to look alike when the rule
    grew keeps the `<skeleton>#<id>` its migration gave it, so saving its other fields never collides)."""
    if instance.pk and instance.name_skeleton:
        stored = type(instance).objects.filter(pk=instance.pk).values_list("name", flat=True).first()
        if stored == instance.name:
            return instance.name_skeleton
    return names.name_skeleton(instance.name)


def _with_skeleton(instance: models.Model, save_kwargs: dict) -> None:
    """Set `instance.name_skeleton` before a save (`_skeleton_to_store`), and save it with the name when the caller
    names the fields to update (`save(update_fields=["name"])`)."""
    instance.name_skeleton = _skeleton_to_store(instance)
    fields = save_kwargs.get("update_fields")
    if fields is not None and "name" in fields:
        save_kwargs["update_fields"] = {*fields, "name_skeleton"}


class Team(models.Model):
    """A group of users that owns systems and submissions. Team names are unique by their look (`name_skeleton`,
    as system names: catalog.names), in the database, so two teams renamed at once to "Acme" and "ACME" cannot
    both succeed."""

    name = models.CharField(max_length=100, unique=True)
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="teams")
    created_at = models.DateTimeField(auto_now_add=True)
    name_skeleton = models.CharField(max_length=300, unique=True, editable=False,
                                     help_text="the name as compared for look-alikes (catalog.names.name_skeleton)")

    class Meta:
        db_table = "leaderboard_team"  # the table of the app this model came from (catalog 0001)

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        _with_skeleton(self, kwargs)
        super().save(*args, **kwargs)


#: The platform's own teams: `platform` holds each benchmark's reference solutions (manage.py seed_references),
#: `demo` the demo systems (benchmarks/demo-submissions/systems.json). Their names are reserved, and only they may
#: enter a system under a reserved name (`reserved_name_problem`).
PLATFORM_TEAMS = ("platform", "demo")
#: Names that are the platform's own, reserved for systems and teams alike (compared by skeleton): the site and
#: benchmark, the oracle's labels, the site's roles. Besides these, each benchmark's name, title and
#: "<title> reference solutions" (seed_references names its oracle so) and every system the benchmark's authors
#: reported (ReportedResult.system) are reserved: `reserved_names`.
PLATFORM_NAMES = ("RepoGenesis", "RepoGenesis Leaderboard", "RepoGenesis Verified", "Reference solutions",
                  "Reference solutions (oracle)", "Reference (oracle)", "Reference", "Oracle", "admin",
                  "administrator", "staff", "moderator", "Reported by the authors", "Verified here", *PLATFORM_TEAMS)

#: Words no team's system or team name may hold anywhere (by skeleton): the oracle's name is "<benchmark title>
#: reference solutions", for any benchmark, imported yet or not.
RESERVED_PARTS = ("reference solution",)


def reported_label(system: str, base_model: str) -> str:
    """The label a published result is shown under in tables and charts: `System · base model`, or the system
    alone when no base model was published."""
    return f"{system} · {base_model}" if base_model else system


def reserved_names() -> list[str]:
    """Every reserved name, as written: PLATFORM_NAMES, each benchmark's name, title and "<title> reference
    solutions", and the system names of the published results with the labels the board shows them under
    (ReportedResult.label, "System · base model": "Copilot · Claude Sonnet 4.5" passed for its row, the fourth
    break-it pass of issue 13). Two queries."""
    found = list(PLATFORM_NAMES)
    for name, title in Benchmark.objects.values_list("name", "title").distinct():
        found += [name, f"{title or name} reference solutions", *([title] if title else [])]
    for system, base_model in ReportedResult.objects.values_list("system", "base_model").distinct():
        found += {system, reported_label(system, base_model)}
    return found


def reserved_name_problem(name: str) -> str | None:
    """Why `name` may not be chosen by a team for a system or for itself because it looks like (same
    catalog.names.name_skeleton) a reserved name (`reserved_names`) or holds RESERVED_PARTS, as a sentence naming
    it; None when it does not.
    The platform's own teams (PLATFORM_TEAMS) are not asked (their seeding commands enter such names)."""
    skeleton = names.name_skeleton(name)
    match = next((reserved for reserved in reserved_names() if names.name_skeleton(reserved) == skeleton), None)
    if match is None and any(names.name_skeleton(part) in skeleton for part in RESERVED_PARTS):
        match = "<benchmark> reference solutions"
    if match is None:
        return None
    return (f"The name {name!r} is reserved: it looks like {match!r}, a name of the platform or of a system whose "
            "results the benchmark's authors published, and would pass for it on the leaderboard. Choose another.")


class TeamInvitation(models.Model):
    """An invitation for a user to join a team, made by one of its members by user name (`invitee` is that account)
    or by e-mail address (`invited_as`; `invitee` stays empty until the invitation is answered: the account whose
    verified address it is then, if any, sees it and answers it, and is set as `invitee`). Accepting it makes the
    user a member: they may then submit for the team's systems, under the team's quota. At most one pending
    invitation per team and user name (invitation_one_pending) and per team and address
    (invitation_one_pending_address)."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        REVOKED = "revoked", "Revoked"

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="invitations")
    #: The invited account: the one named, for an invitation by user name; for one by address, the account that
    #: answered it (empty while it is pending, or when a member revoked it).
    invitee = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="team_invitations",
                                null=True, blank=True)
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    #: The e-mail address the invitation was made to (lower case), when it was made by address (else ""): the team
    #: sees it, not the account's user name, until the invitation is accepted, and whether an account has verified
    #: it is never told (an address must not tell whose account it is, nor that there is one: the eleventh and
    #: twelfth break-it passes of issue 13).
    invited_as = models.EmailField(max_length=254, blank=True, default="")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    @property
    def invitee_shown(self) -> str:
        """How the invitee is named to the inviting team: the user name, or the e-mail address the invitation was
        made to until it is accepted."""
        if self.invited_as and (self.status != self.Status.ACCEPTED or self.invitee is None):
            return self.invited_as
        return self.invitee.username

    class Meta:
        constraints = [models.UniqueConstraint(fields=["team", "invitee"], condition=models.Q(status="pending"),
                                               name="invitation_one_pending"),
                       models.UniqueConstraint(fields=["team", "invited_as"],
                                               condition=models.Q(status="pending") & ~models.Q(invited_as=""),
                                               name="invitation_one_pending_address")]
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.invitee or self.invited_as} to {self.team}: {self.status}"


#: A system's description is shown on the board's pages: a paragraph, not a document (issue 13: 1 MB was accepted).
DESCRIPTION_MAX_LENGTH = 2000


class System(models.Model):
    """An agent (or IDE, or other tool) whose generated repositories are submitted."""

    class Type(models.TextChoices):
        AGENT = "agent", "Agent"
        IDE = "ide", "IDE"
        OTHER = "other", "Other"
        REFERENCE = "reference", "Reference (oracle)"  # the benchmark's reference solutions: shown apart, never ranked

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="systems")
    name = models.CharField(max_length=100, unique=True)
    agent_framework = models.CharField(max_length=100, blank=True)
    base_model = models.CharField(max_length=100, blank=True)
    type = models.CharField(max_length=16, choices=Type.choices, default=Type.AGENT)
    url = models.URLField("URL", blank=True)
    source_url = models.URLField("source code URL", blank=True,
                                 help_text="the public repository of the system's code, if it is open source "
                                           "(the board then shows an \"open source\" badge linking to it)")
    description = models.TextField(blank=True, max_length=DESCRIPTION_MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)

    name_skeleton = models.CharField(max_length=300, unique=True, editable=False,
                                     help_text="the name as compared for look-alikes (catalog.names.name_skeleton)")

    class Meta:
        db_table = "leaderboard_system"  # the table of the app this model came from (catalog 0001)
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    #: The other texts a system shows on the board, as messages name them: no invisible or control character
    #: (catalog.names.text_problem; the description may hold line breaks and tabs). The two URLs are shown as link
    #: text and in the open-source badge's title (the ninth break-it pass of issue 13: a right-to-left override and
    #: a BEL were stored in them).
    SHOWN_TEXTS = {"agent_framework": "The agent framework", "base_model": "The base model",
                   "description": "The description", "url": "The URL", "source_url": "The source code URL"}

    def clean(self) -> None:
        """Refuse names the board could not tell apart (catalog.names): invisible or control characters, only
        digits, or a name that looks like another system's; a new name holding "/" (the API addresses a system by
        name: catalog.names.system_name_problem), or a new name that is reserved (`reserved_name_problem`, unless
        the team is one of PLATFORM_TEAMS); an agent framework, base model, description, URL or source code URL holding an
        invisible or control character (a bidi override would reorder the board's text), and a description over
        DESCRIPTION_MAX_LENGTH characters. A text stored before these rules and not changed is kept as it is.
        Raises ValidationError({field: message}) naming every refused field."""
        super().clean()
        errors = {}
        stored = (System.objects.filter(pk=self.pk).values("name", *self.SHOWN_TEXTS).first()
                  if self.pk else None) or {}
        renamed = stored.get("name") != self.name
        problem = self._name_problem() if renamed else None
        if problem:
            errors["name"] = problem
        for field, what in self.SHOWN_TEXTS.items():
            value = getattr(self, field) or ""
            if field in stored and stored[field] == value:
                continue
            problem = names.text_problem(value, what=what, multiline=field == "description")
            if problem is None and field == "description" and len(value) > DESCRIPTION_MAX_LENGTH:
                problem = (f"The description is {len(value)} characters long; it may have at most "
                           f"{DESCRIPTION_MAX_LENGTH} (a paragraph shown on the system's page).")
            if problem:
                errors[field] = problem
        if errors:
            raise ValidationError(errors)

    def _name_problem(self) -> str | None:
        """Why this system's new name is refused (see `clean`), or None: also when it looks like another system's
        or another team's name (a team renamed "Demo Agent Alpha" would pass for that system's authors)."""
        problem = names.system_name_problem(self.name or "")
        if problem is None and not (self.team_id and self.team.name in PLATFORM_TEAMS):
            problem = reserved_name_problem(self.name)
        if problem is not None:
            return problem
        skeleton = names.name_skeleton(self.name)
        twin = System.objects.filter(name_skeleton=skeleton).exclude(pk=self.pk).first()
        if twin is not None:
            return (f"A system called {twin.name!r} already exists and {self.name!r} would look the same on the "
                    "leaderboard; choose a name that differs in more than letter case, look-alike letters or "
                    "spacing.")
        return self.team_lookalike_problem()

    def team_lookalike_problem(self) -> str | None:
        """Why this system's name is refused because it looks like another team's name, or None (asked again under
        catalog.conflicts.names_lock once the system is stored: catalog.services.system_save)."""
        team = Team.objects.filter(name_skeleton=names.name_skeleton(self.name)).exclude(pk=self.team_id).first()
        if team is not None:
            return (f"A team called {team.name!r} exists and a system called {self.name!r} would look like it on "
                    "the leaderboard; choose another name.")
        return None

    @property
    def is_open_source(self) -> bool:
        """True when the team gave the public repository of the system's code (`source_url`)."""
        return bool(self.source_url)

    def save(self, *args, **kwargs) -> None:
        _with_skeleton(self, kwargs)
        super().save(*args, **kwargs)


class ReportedResult(models.Model):
    """A published result "reported by the authors" of a benchmark: not evaluated by us.

    Values are percentages exactly as published (two decimals), per language; a language the source does not
    report is null. Kept apart from ranked rows until an admin verifies the row (`verified_at` set); a re-import
    that changes a verified row's values clears its verification. `findings` lists the consistency check's
    results ([{"field", "kind", "message"}], see catalog/reported_files.py); `consistent` is False when a
    value cannot come from the stated task and endpoint counts. A row with any finding cannot be verified.
    """

    class Type(models.TextChoices):
        AGENT = "agent", "Agent"
        IDE = "ide", "IDE"
        OTHER = "other", "Other"
        REFERENCE = "reference", "Reference (oracle)"  # the benchmark's reference solutions: shown apart, never ranked

    benchmark_name = models.SlugField(max_length=64, help_text="the benchmark the authors evaluated on, by name")
    split_name = models.SlugField(max_length=64)
    system = models.CharField(max_length=100)
    base_model = models.CharField(max_length=100, blank=True)
    type = models.CharField(max_length=16, choices=Type.choices, default=Type.AGENT)
    python_pass_at_1 = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    python_ac = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    python_dsr = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    java_pass_at_1 = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    java_ac = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    java_dsr = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    consistent = models.BooleanField(default=True)
    findings = models.JSONField(default=list, blank=True)
    source = models.CharField(max_length=300)
    source_url = models.URLField("source URL", blank=True)
    source_date = models.DateField()
    paper = models.CharField(max_length=300, blank=True)
    paper_url = models.URLField("paper URL", blank=True)
    denominators = models.JSONField(default=dict, help_text='{"python": {"tasks": 22, "endpoints": 115}, ...}')
    line = models.PositiveIntegerField(default=0, help_text="line of the row in the source file")
    verified_at = models.DateTimeField(null=True, blank=True)
    verified_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    imported_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "leaderboard_reportedresult"  # the table of the app this model came from (catalog 0001)
        constraints = [models.UniqueConstraint(fields=["benchmark_name", "split_name", "system", "base_model"],
                                               name="reported_result_identity")]
        ordering = ["benchmark_name", "split_name", "line"]
        verbose_name = "published result"

    def __str__(self) -> str:
        return f"{self.system} ({self.base_model}), reported on {self.benchmark_name}/{self.split_name}"

    @property
    def is_verified(self) -> bool:
        return self.verified_at is not None

    @property
    def label(self) -> str:
        """`System · base model`, the name shown in tables and charts."""
        return reported_label(self.system, self.base_model)

    def value(self, language: str, metric: str):
        """The published percentage (Decimal) of `metric` (pass_at_1, ac, dsr) for `language`, or None."""
        return getattr(self, f"{language}_{metric}")
