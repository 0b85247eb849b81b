"""Writes for benchmarks, tasks, splits, teams and systems (HackSoft styleguide: `<entity>_<action>`)."""
from __future__ import annotations

import shutil
import uuid
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from .benchmark_files import BenchmarkSource, TaskSource
from .bundles import bundle_store, task_bundles_ensure
from .bundles import task_hidden_dir, task_reference_dir  # noqa: F401 (their home before bundles: callers import here)
from .conflicts import Unique, names_lock, unique_refusal
from .signals import board_changed
from .models import Benchmark, ReportedResult, Split, System, Task, Team, TeamInvitation, reserved_name_problem
from .names import name_problem, name_skeleton
from .reported_files import METRICS, ReportedRowSource, ReportedSource
from .selectors import invitations_received, user_in_team


@dataclass(frozen=True)
class ImportOutcome:
    """What `benchmark_import` did: the benchmark row and whether it was new."""

    benchmark: Benchmark
    created: bool


def _store_task_files(task: TaskSource, storage: Path) -> None:
    hidden = storage / "tasks" / task.name
    for path in task.hidden_files:
        target = hidden / path.relative_to(task.folder)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
    if task.reference_dir:
        shutil.copytree(task.reference_dir, storage / "references" / task.name, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__", "target", ".venv", "venv"), dirs_exist_ok=True)


def _store_files(source: BenchmarkSource) -> Path:
    """Copy hidden files and references to BENCHMARK_ROOT/<name>/<version>/ (content-addressed: an
    existing complete copy of the same version is reused; a new copy is built aside and renamed in)."""
    storage = Path(settings.BENCHMARK_ROOT) / source.name / source.version[:16]
    if (storage / ".complete").exists():
        return storage
    staging = storage.with_name(f"{storage.name}.{uuid.uuid4().hex[:8]}.tmp")
    for task in source.tasks:
        _store_task_files(task, staging)
    (staging / ".complete").write_text(source.version)
    staging.chmod(0o700)
    try:
        staging.rename(storage)
    except OSError:  # another import finished the same version first
        shutil.rmtree(staging, ignore_errors=True)
    return storage


def benchmark_import(*, source: BenchmarkSource, test_counts: dict[str, int] | None = None) -> ImportOutcome:
    """Store a benchmark read by `read_benchmark`: files to BENCHMARK_ROOT and, per task, a bundle of its private
    files to the benchmarks storage (catalog.bundles: what worker hosts fetch), rows to the database.

    Re-importing an unchanged folder returns the existing version (created=False). A changed folder
    creates a new version and makes it current; older versions and their results stay.
    `test_counts` ({task: collected count}) raises N above the static count where larger.
    """
    existing = Benchmark.objects.filter(name=source.name, version=source.version).first()
    if existing:
        task_bundles_ensure(tasks=existing.tasks.select_related("benchmark"))  # imported before bundles existed
        return ImportOutcome(existing, False)
    storage = _store_files(source)
    bundles = {t.name: bundle_store(hidden=storage / "tasks" / t.name, reference=storage / "references" / t.name)
               for t in source.tasks}
    counts = test_counts or {}
    with transaction.atomic():
        Benchmark.objects.filter(name=source.name).update(is_current=False)
        board_changed.send(sender=Benchmark, name=source.name)  # a bulk UPDATE: the board's cache is stale
        benchmark = Benchmark.objects.create(name=source.name, title=source.title or source.name,
                                             version=source.version, storage_dir=str(storage), info=source.info)
        rows = {}
        for t in source.tasks:
            rows[t.name] = Task.objects.create(
                benchmark=benchmark, name=t.name, language=t.language, port=t.port, framework=t.framework,
                framework_guessed=t.framework_guessed, domain=t.domain, readme=t.readme,
                declared_endpoints=t.endpoints, tests_total=max(t.static_count, counts.get(t.name) or 0),
                handout_files=t.handout_files, has_reference=t.has_reference, port_source=t.port_source[:300],
                suite_kind=t.suite_kind, fixes=t.fixes, defects=t.defects, bundle_sha256=bundles[t.name],
            )
        for split_name, members in source.splits.items():
            split = Split.objects.create(benchmark=benchmark, name=split_name)
            split.tasks.set([rows[m] for m in members])
    return ImportOutcome(benchmark, True)


def task_set_reference_status(*, task: Task, status: str, detail: str, runs: list[dict] | None = None) -> Task:
    """Record whether the reference solution passes its own suite (`passed`, `flaky`, `failed`, `none`) and, when
    given, each check run as {"outcome", "passed", "total", "seconds"} (the task page's flake rate)."""
    task.reference_status = status
    task.reference_detail = detail[:500]
    task.reference_runs = runs or []
    task.save(update_fields=["reference_status", "reference_detail", "reference_runs"])
    return task


def team_for_user(*, user: User) -> Team:
    """The user's team, creating a personal team on first use, named after the user when that name is free under
    the rule of every team name (`team_name_problem`: no hidden character, not reserved, no look-alike of another
    team: "DEMO" or "dеmo" with a Cyrillic е may not pass for "demo"), else the first free of "<username>-2",
    "<username>-3" ... and, for a username no team name may hold, "team-<user id>", "team-<user id>-2" ...
    (the sign-up page tells the user the name: `personal_team_renamed`).

    One personal team per user, also for two first requests at the same moment: the creation holds the user's row
    (`user_lock`) and looks for a team again, so the later request finds the earlier one's team (the sixth
    break-it pass of issue 13: both made one). Raises TeamError in the unlikely case that every name tried was
    taken by a concurrent write (`_personal_team_create`)."""
    team = user.teams.order_by("pk").first()
    if team is not None:
        return team
    with transaction.atomic():
        user_lock(user)
        team = user.teams.order_by("pk").first()
        return team if team is not None else _personal_team_create(user)


def user_lock(user: User) -> None:
    """Hold `user`'s row until the current transaction ends (SELECT ... FOR UPDATE on PostgreSQL; SQLite's IMMEDIATE
    transactions are serial already). Call it inside transaction.atomic()."""
    User.objects.select_for_update().filter(pk=user.pk).values_list("pk").first()


#: Tries at a free personal team name when each one chosen is taken by a concurrent write before it is stored.
PERSONAL_TEAM_TRIES = 3


def _personal_team_create(user: User) -> Team:
    """Create the user's personal team under the first free name (`_personal_team_name`); a name another write took
    between the choice and the write (a unique violation on the team's table, or another team's look-alike system:
    `_personal_team_insert`) is chosen again, up to PERSONAL_TEAM_TRIES times. Raises the IntegrityError of the last
    try, or any other one; TeamError when the last name tried looked like a system stored meanwhile."""
    for attempt in range(PERSONAL_TEAM_TRIES):
        try:
            team = _personal_team_insert(user)
        except IntegrityError as exc:
            if attempt == PERSONAL_TEAM_TRIES - 1 or not Unique(Team).violated_by(exc):
                raise
            continue
        if team is not None:
            return team
    raise TeamError("No name could be chosen for your personal team: other teams took each one at the same "
                    "moment. Try again.")


def _personal_team_insert(user: User) -> Team | None:
    """One try of `_personal_team_create`, in a savepoint: the team under the chosen name, with the user as its
    member; None (nothing kept) when a system of another team that looks like the name was stored since the name was
    chosen (asked again under catalog.conflicts.names_lock, as `team_rename` does: the sixth break-it pass of issue
    13 stored a personal team "erin" beside another team's system "ERIN" created at that moment). Raises
    IntegrityError when another team took the name."""
    with transaction.atomic():
        team = Team.objects.create(name=_personal_team_name(user))
        names_lock()  # then the other kind, which no constraint of this table covers (catalog.conflicts)
        if _system_lookalike_problem(team.name, exclude=team.pk):
            transaction.set_rollback(True)
            return None
        team.members.add(user)
    return team


def _personal_team_name(user: User) -> str:
    others = {*Team.objects.values_list("name_skeleton", flat=True),
              *System.objects.values_list("name_skeleton", flat=True)}
    for base in (user.username, f"team-{user.pk}"):
        for n in range(1, 1000):
            name = base if n == 1 else f"{base}-{n}"
            if _team_name_problem(name, others=others) is None:
                return name
    return f"team-{uuid.uuid4().hex[:12]}"


def personal_team_renamed(*, user: User, team: Team) -> bool:
    """True when the user's personal `team` is not named exactly after the user (the name was taken, looked like
    another team's or was reserved), so the sign-up page should say what it is called."""
    return team.name != user.username


#: System types only staff (or admins) may give a system: the benchmark's reference solutions are shown apart from
#: the competition as the oracle row, so a team entering its own system as one would be shown as the ceiling.
STAFF_ONLY_TYPES = (System.Type.REFERENCE,)


def system_type_problem(*, user: User, type: str, current: str | None = None) -> str | None:
    """Why `user` may not give a system the type `type` (a sentence saying what to do), or None when they may.
    Only staff and admins may create a system of a staff-only type (`reference`, the oracle) or switch one to it;
    a system that already has that type (`current`) may keep it."""
    if type not in STAFF_ONLY_TYPES or type == current or getattr(user, "is_staff", False) \
            or getattr(user, "is_superuser", False):
        return None
    label = System.Type(type).label
    return (f"Only the site's staff can enter a system of type {label!r}: it is the benchmark's own reference "
            "solutions, shown as the oracle apart from the ranked systems. Choose agent, IDE or other.")


def system_create(*, team: Team, name: str, agent_framework: str = "", base_model: str = "", type: str = "agent",
                  url: str = "", description: str = "", source_url: str = "") -> System:
    """Create a system owned by `team` (`source_url`: its code's public repository, if open source). Raises
    django.core.exceptions.ValidationError on bad fields (`system_save`)."""
    system = System(team=team, name=name, agent_framework=agent_framework, base_model=base_model, type=type,
                    url=url, description=description, source_url=source_url)
    return system_save(system=system)


def system_save(*, system: System) -> System:
    """Check a new or changed system (System.clean: its name, its texts) and store it. A name that another
    system's concurrent save took between the check and the write (the unique name or name skeleton) is refused
    as the check refuses it once that system is stored. Raises django.core.exceptions.ValidationError
    ({field: message}) on bad fields, a taken or look-alike name included."""
    system.full_clean()
    with transaction.atomic():
        with unique_refusal(Unique(System, ("name",)), Unique(System, ("name_skeleton",)),
                            refusal=lambda: _system_check_again(system)):
            system.save()
        names_lock()  # then the other kind, which no constraint of this table covers (catalog.conflicts)
        problem = system.team_lookalike_problem()
        if problem:
            raise ValidationError({"name": problem})
    return system


def _system_check_again(system: System) -> ValidationError:
    """The ValidationError System.full_clean raises for `system` now (the name another save just took), or, when
    it passes again (that system renamed meanwhile), one saying the name was just taken. The skeleton the failed
    save computed is not asked about: System.clean refuses a look-alike under `name`, as the first check did."""
    try:
        system.full_clean(exclude=["name_skeleton"])
    except ValidationError as exc:
        return exc
    return ValidationError({"name": f"Another system took a name that looks like {system.name!r} a moment ago; "
                                    "choose another."})


@dataclass(frozen=True)
class ReportedImportOutcome:
    """What `reported_results_import` did, as row labels (`System · base model`). `unverified`: verified rows
    whose published values, denominators or findings changed, so their verification was cleared; `removed`: rows
    no longer in the file (deleted), `removed_verified` those of them that were verified."""

    created: list[str]
    updated: list[str]
    unchanged: list[str]
    unverified: list[str]
    removed: list[str]
    removed_verified: list[str]


#: Every published value column; a language the source does not report is stored as None.
VALUE_FIELDS = tuple(f"{language}_{metric}" for language in ("python", "java") for metric in METRICS)
#: Fields whose change voids an admin's verification.
VERIFIED_FIELDS = (*VALUE_FIELDS, "denominators", "findings")


def _reported_fields(source: ReportedSource, row: ReportedRowSource) -> dict:
    return {"source": source.source, "source_url": source.source_url, "source_date": source.source_date,
            "paper": source.paper, "paper_url": source.paper_url, "denominators": source.denominators,
            **{key: row.values.get(key) for key in VALUE_FIELDS}, "type": row.type, "line": row.line,
            "consistent": row.consistent, "findings": [f.as_dict() for f in row.findings]}


def reported_results_import(*, source: ReportedSource) -> ReportedImportOutcome:
    """Store the rows of a published-results file read by `read_reported`, in one transaction (a failure stores
    nothing). Rows are matched on (benchmark, split, system, base model); a verified row whose values,
    denominators or findings change loses its verification; rows of the same benchmark and split missing from
    the file are deleted."""
    outcome = ReportedImportOutcome([], [], [], [], [], [])
    scope = ReportedResult.objects.filter(benchmark_name=source.benchmark, split_name=source.split)
    with transaction.atomic():
        existing = {(r.system, r.base_model): r for r in scope.select_for_update()}
        for row in source.rows:
            fields = _reported_fields(source, row)
            result = existing.pop((row.system, row.base_model), None)
            if result is None:
                result = ReportedResult.objects.create(benchmark_name=source.benchmark, split_name=source.split,
                                                       system=row.system, base_model=row.base_model, **fields)
                outcome.created.append(result.label)
                continue
            if all(getattr(result, k) == v for k, v in fields.items()):
                outcome.unchanged.append(result.label)
                continue
            if result.is_verified and any(getattr(result, k) != fields[k] for k in VERIFIED_FIELDS):
                fields.update(verified_at=None, verified_by=None)
                outcome.unverified.append(result.label)
            for key, value in fields.items():
                setattr(result, key, value)
            result.save()
            outcome.updated.append(result.label)
        for result in existing.values():
            outcome.removed.append(result.label)
            if result.is_verified:
                outcome.removed_verified.append(result.label)
            result.delete()
    return outcome


def reported_result_verify(*, result: ReportedResult, user: User) -> ReportedResult:
    """Let a reported row join the ranked tables, recording who verified it and when (a row already verified is
    left as it is). Raises ValidationError when the check found anything: a value that cannot come from the
    stated task and endpoint counts, or a Pass@1 above its DSR (a definition other than docs/scoring.md
    "Metrics per task")."""
    if result.findings:
        problems = "; ".join(f["message"] for f in result.findings)
        raise ValidationError(f"{result.label} cannot be verified: {problems}")
    if not result.is_verified:
        result.verified_at, result.verified_by = timezone.now(), user
        result.save(update_fields=["verified_at", "verified_by"])
    return result


def reported_result_unverify(*, result: ReportedResult) -> ReportedResult:
    """Take a reported row back out of the ranked tables."""
    result.verified_at, result.verified_by = None, None
    result.save(update_fields=["verified_at", "verified_by"])
    return result


# --- teams: names, members, invitations (issue 13 "Lifecycle") ------------------------------------------------
class TeamError(ValueError):
    """A team change was refused; the message says what was wrong and what to do. Nothing changed."""


def _member_check(team: Team, user: User) -> None:
    if not user_in_team(user=user, team=team):
        raise PermissionError(f"only members of {team.name} can do this")


def team_rename(*, team: Team, user: User, name: str) -> Team:
    """Rename a team of the user. Raises PermissionError for a non-member, TeamError for a blank, over-long,
    reserved, taken or look-alike name (`_team_name_problem`), also when another team took it between the check and
    the write (any unique constraint of the team's table)."""
    _member_check(team, user)
    name = (name or "").strip()
    if not name or len(name) > 100:
        raise TeamError("A team name has 1 to 100 characters.")
    problem = _team_name_problem(name, exclude=team.pk)
    if problem:
        raise TeamError(problem)
    old, team.name = team.name, name
    try:
        with transaction.atomic():
            with unique_refusal(Unique(Team), refusal=lambda: TeamError(_team_name_problem(name, exclude=team.pk)
                                                                         or _team_lookalike(name))):
                team.save(update_fields=["name"])
            names_lock()  # then the other kind, which no constraint of this table covers (catalog.conflicts)
            problem = _system_lookalike_problem(name, exclude=team.pk)
            if problem:
                raise TeamError(problem)
    except TeamError:
        team.name = old
        raise
    return team


def _system_lookalike_problem(name: str, *, exclude: int | None) -> str | None:
    """Why a team called `name` would look like a system of a team other than `exclude`, or None."""
    system = System.objects.filter(name_skeleton=name_skeleton(name)).exclude(team_id=exclude).first()
    if system is None:
        return None
    return (f"Another team's system is called {system.name!r} and a team called {name!r} would look like it "
            "on the leaderboard; choose another.")


def _team_lookalike(name: str) -> str:
    """The refusal of a team name that looks like another team's or system's, when neither is named."""
    return f"A team or system already has a name that looks like {name!r}; choose another."


def _team_name_problem(name: str, *, exclude: int | None = None, others: set[str] | None = None) -> str | None:
    """Why `name` cannot be a team's name (catalog.names.name_problem, reserved_name_problem, a "/", or it looks like
    another team's name or another team's system's: same skeleton), or None. `exclude`: the team being renamed
    (its own systems may share its name); `others`: the skeletons of every team and system when the caller has
    them (then the message names neither)."""
    problem = name_problem(name) or reserved_name_problem(name)
    if problem:
        return problem.replace("Give the system a name.", "Give the team a name.")
    if "/" in name:  # a team name is the subject of invitation e-mails: no address in it (break-it pass 9, issue 13)
        return ('A team name cannot hold "/" (a team name is not an address: it is shown on the board and in the '
                'e-mails the site sends). Use "-", "·" or a space instead.')
    skeleton = name_skeleton(name)
    if others is not None:
        return _team_lookalike(name) if skeleton in others else None
    other = Team.objects.filter(name_skeleton=skeleton).exclude(pk=exclude).first()
    if other is not None:
        return f"A team called {other.name!r} already exists and {name!r} would look the same; choose another."
    return _system_lookalike_problem(name, exclude=exclude)


def team_invite(*, team: Team, by: User, who: str) -> TeamInvitation:
    """Invite `who` to join `team`: a user name, or an e-mail address when `who` holds an @.

    By user name: the account is e-mailed when it has an address (`_invitation_email`). Raises TeamError when no
    such account exists, it is a member already, or it has a pending invitation by user name to the team (also
    one made at the same moment: `_already_invited`; an invitation by address is not the account's until it is
    answered, so it never counts here), or it was invited by user name INVITATIONS_RECEIVED_PER_DAY times today.

    By address: the invitation is tied to no account (`invitee` empty) until it is answered; the account that has
    verified the address, if any, sees it on its /teams/ page and is e-mailed. Whether such an account exists, and
    whether it is a member, is never told: the invitation is made either way (the twelfth break-it pass of issue
    13 read both off the refusals). Raises TeamError for a malformed address, a pending invitation of the team to
    that address already, or INVITATIONS_RECEIVED_PER_DAY invitations to it today.

    Either way: PermissionError when `by` is not a member; TeamError when the team has TEAM_MAX_MEMBERS members,
    pending invitations included (counted under the team's lock, `team_lock`, so two invitations to the last place
    at once cannot both be made: the sixth break-it pass of issue 13), or `by` sent INVITATIONS_SENT_PER_DAY
    invitations today."""
    _member_check(team, by)
    who = (who or "").strip()
    if not who:
        raise TeamError("Give the user name or verified e-mail address of the account to invite.")
    pending = team.invitations.filter(status=TeamInvitation.Status.PENDING)
    if "@" in who:
        address = who.lower()
        try:
            validate_email(address)
        except ValidationError:
            raise TeamError(f"{who!r} is not an e-mail address.") from None
        invitee, shown, rule = None, address, "invitation_one_pending_address"
        if pending.filter(invited_as=address).exists():
            raise _already_invited(team, shown)
        _invitation_rate_check(by, TeamInvitation.objects.filter(invited_as=address), shown)
    else:
        invitee = User.objects.filter(username=who, is_active=True).first()
        if invitee is None:
            raise TeamError(f"No account is named {who!r} (user names are case-sensitive).")
        address, shown, rule = "", invitee.username, "invitation_one_pending"
        if team.members.filter(pk=invitee.pk).exists():
            raise TeamError(f"{shown} is already a member of {team.name}.")
        if pending.filter(invitee=invitee).exists():
            raise _already_invited(team, shown)
        _invitation_rate_check(by, TeamInvitation.objects.filter(invitee=invitee, invited_as=""), shown)
    with transaction.atomic():
        team_lock(team.pk)  # two invitations to the last place at once: the later one counts the earlier one
        if team.members.count() + pending.count() >= settings.TEAM_MAX_MEMBERS:
            raise TeamError(f"A team has at most {settings.TEAM_MAX_MEMBERS} members, pending invitations "
                            "included.")
        with unique_refusal(Unique.named(TeamInvitation, rule), refusal=lambda: _already_invited(team, shown)):
            invitation = TeamInvitation.objects.create(team=team, invitee=invitee, invited_by=by, invited_as=address)
    account = invitee or User.objects.filter(email__iexact=address, is_active=True).first()
    if account is not None and account.email and not (invitee is None and team.members.filter(pk=account.pk)
                                                      .exists()):
        _invitation_email(invitation, account)
    return invitation


#: Invitations (answered and revoked ones included) a user name, or an address, may receive, and an account may
#: send, in 24 hours: each one is an e-mail the site sends (the ninth break-it pass of issue 13 sent 20 in a row to
#: one address by inviting and revoking). An account is e-mailed at most INVITATIONS_RECEIVED_PER_DAY times in 24
#: hours, counting the invitations to its user name and to its verified address (`_invitation_email`).
INVITATIONS_RECEIVED_PER_DAY = 3
INVITATIONS_SENT_PER_DAY = 20


def _invitation_rate_check(by: User, received: QuerySet, shown: str) -> None:
    """Raise TeamError when `received` (the invitations to one user name, or to one address, named `shown` in the
    message) holds INVITATIONS_RECEIVED_PER_DAY made in the last 24 hours, or `by` sent INVITATIONS_SENT_PER_DAY."""
    since = timezone.now() - timedelta(days=1)
    if received.filter(created_at__gte=since).count() >= INVITATIONS_RECEIVED_PER_DAY:
        raise TeamError(f"{shown} was invited {INVITATIONS_RECEIVED_PER_DAY} times in the last 24 hours: invite "
                        "them again tomorrow.")
    if TeamInvitation.objects.filter(invited_by=by, created_at__gte=since).count() >= INVITATIONS_SENT_PER_DAY:
        raise TeamError(f"You sent {INVITATIONS_SENT_PER_DAY} invitations in the last 24 hours: send more "
                        "tomorrow.")


def _invitation_email(invitation: TeamInvitation, account: User) -> None:
    """E-mail `account` (it has a verified address) about `invitation`, unless it received
    INVITATIONS_RECEIVED_PER_DAY invitations before this one in the last 24 hours, by user name or by its address
    (`invitations_received`): the answer to the inviter is the same either way, so an address tells nothing."""
    since = timezone.now() - timedelta(days=1)
    if (invitations_received(user=account).filter(created_at__gte=since).exclude(pk=invitation.pk).count()
            >= INVITATIONS_RECEIVED_PER_DAY):
        return
    by, team = invitation.invited_by, invitation.team
    send_mail(f"[RepoGenesis Leaderboard] {by.username} invites you to the team {team.name}",
              f"{by.username} invites you to join the team {team.name} on the RepoGenesis Leaderboard: its "
              "members submit for its systems and share its daily quota.\n\n"
              f"Accept or decline on {settings.SITE_URL}/teams/\n", None, [account.email], fail_silently=True)


def team_lock(team_id: int) -> None:
    """Hold the row of the team `team_id` until the current transaction ends: its members and pending invitations are
    counted against TEAM_MAX_MEMBERS under it (`team_invite`, `invitation_answer`; `team_leave` keeps one), and its
    daily quota and the deletion of its systems (submissions.services.quota_check, submissions.systems.system_delete).
    PostgreSQL: SELECT ... FOR UPDATE; SQLite's IMMEDIATE transactions are serial already. Call it inside
    transaction.atomic()."""
    Team.objects.select_for_update().filter(pk=team_id).values_list("pk").first()


def _already_invited(team: Team, shown: str) -> TeamError:
    """The refusal of a second pending invitation of a user name or an address (`shown`) to `team` (checked first,
    then by the constraint invitation_one_pending or invitation_one_pending_address when two invitations are made
    at once)."""
    return TeamError(f"{shown} already has a pending invitation to {team.name}.")


def _invitation_is_for(invitation: TeamInvitation, user: User) -> bool:
    """True when `user` is the invitee: the account named or that answered, or, for an invitation by address not
    answered yet, the account that has verified that address: the rule of `invitations_received`, its one owner."""
    return user.is_authenticated and invitations_received(user=user).filter(pk=invitation.pk).exists()


def invitation_answer(*, invitation: TeamInvitation, user: User, accept: bool) -> TeamInvitation:
    """The invitee (`_invitation_is_for`) accepts (joins the team) or declines a pending invitation; answering one
    made by address ties it to the account (`invitee`). A member of the team may revoke it (accept=False). Raises
    PermissionError for anyone else, TeamError when it is no longer pending or, on accepting, when the team has
    TEAM_MAX_MEMBERS members already (counted under the team's lock, `team_lock`: two invitees accepting at once
    cannot both pass the limit; the refused invitation stays pending). Accepting closes (accepted) every other
    pending invitation of the account to the team, by user name or by its address; an account that is a member
    already just closes them."""
    is_invitee = _invitation_is_for(invitation, user)
    if not is_invitee and not (not accept and user_in_team(user=user, team=invitation.team)):
        raise PermissionError("only the invited account can answer this invitation")
    status = (TeamInvitation.Status.ACCEPTED if accept else
              TeamInvitation.Status.DECLINED if is_invitee else TeamInvitation.Status.REVOKED)
    answer = {"status": status, "answered_at": timezone.now()}
    if is_invitee:
        answer["invitee"] = user
    with transaction.atomic():
        team_lock(invitation.team_id)  # accepting grows the team: counted under its lock
        if not TeamInvitation.objects.filter(pk=invitation.pk, status=TeamInvitation.Status.PENDING).update(**answer):
            invitation.refresh_from_db()
            raise TeamError(f"This invitation is already {invitation.status}.")
        if accept:
            team = invitation.team
            if not team.members.filter(pk=user.pk).exists() and team.members.count() >= settings.TEAM_MAX_MEMBERS:
                raise TeamError(f"{team.name} is full: a team has at most {settings.TEAM_MAX_MEMBERS} members. Ask a "
                                "member to make room, then accept again.")
            team.members.add(user)
            invitations_received(user=user).filter(team=team, status=TeamInvitation.Status.PENDING).update(**answer)
    invitation.refresh_from_db()
    return invitation


def team_leave(*, team: Team, user: User) -> None:
    """The user leaves the team (its systems and submissions stay the team's). Raises PermissionError for a
    non-member and TeamError for the last member (a team keeps at least one; counted under the team's lock,
    `team_lock`: the two members of a team leaving at once both left it, the eighth break-it pass of issue 13)."""
    _member_check(team, user)
    with transaction.atomic():
        team_lock(team.pk)
        if not team.members.filter(pk=user.pk).exists():
            raise TeamError(f"You left {team.name} already.")
        if team.members.count() <= 1:
            raise TeamError(f"You are the last member of {team.name}: a team keeps at least one member.")
        team.members.remove(user)
