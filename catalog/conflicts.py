"""A write that lost a race on a unique constraint answers like the check it raced past, never with a 500.

Services check a rule (a taken name, a pending invitation) and then write; two requests at the same moment can both
pass the check, and the database's unique constraint then refuses the second write with an IntegrityError.
`unique_refusal` runs such a write in a savepoint and turns the violation of the constraints it is given into the
refusal the service raises for the same conflict met one request after the other (the rule's own check, asked
again once the savepoint is rolled back, now sees the winner's row). Any other IntegrityError is raised as it is.

A rule names its constraint by model and fields (`Unique`), so the mapping holds on SQLite (whose message lists the
table's columns) and on PostgreSQL (whose error names the constraint: its columns are read from the catalog).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, models, router, transaction

SQLITE_UNIQUE = "UNIQUE constraint failed: "
POSTGRES_UNIQUE_VIOLATION = "23505"


@dataclass(frozen=True)
class Unique:
    """A unique constraint of `model` over `fields` (model field names); with no fields, any unique constraint of
    the model's table (every one of them stands for the same rule, e.g. a team's name and its skeleton)."""

    model: type[models.Model]
    fields: tuple[str, ...] = ()

    @classmethod
    def named(cls, model: type[models.Model], name: str) -> Unique:
        """The constraint `name` of model's Meta.constraints (a UniqueConstraint, maybe conditional). Raises
        LookupError when the model has no unique constraint of that name."""
        for constraint in model._meta.constraints:
            if constraint.name == name and isinstance(constraint, models.UniqueConstraint) and constraint.fields:
                return cls(model, tuple(constraint.fields))
        raise LookupError(f"{model.__name__} has no unique constraint {name!r} over fields")

    def columns(self) -> frozenset[str]:
        """The database columns of `fields`."""
        return frozenset(self.model._meta.get_field(name).column for name in self.fields)

    def violated_by(self, exc: IntegrityError) -> bool:
        """True when `exc` is a unique violation of this constraint. On PostgreSQL it reads the catalog (one
        query): call it outside a failed transaction (after its savepoint is rolled back)."""
        table, columns = _unique_violation(exc, connections[router.db_for_write(self.model)])
        if table != self.model._meta.db_table:
            return False
        return not self.fields or columns == self.columns()


def _unique_violation(exc: IntegrityError, connection) -> tuple[str | None, frozenset[str]]:
    """(table, columns) of the unique constraint `exc` reports, or (None, {}) when it is not a unique violation
    (a foreign key, a NOT NULL, a check) or the backend's error cannot be read."""
    cause = exc.__cause__
    if getattr(cause, "sqlite_errorname", None) == "SQLITE_CONSTRAINT_UNIQUE" or str(exc).startswith(SQLITE_UNIQUE):
        pairs = [part.strip().rpartition(".") for part in str(exc).removeprefix(SQLITE_UNIQUE).split(",")]
        tables = {table for table, _, _ in pairs}
        return (tables.pop() if len(tables) == 1 else None), frozenset(column for _, _, column in pairs)
    diag = getattr(cause, "diag", None)
    if getattr(cause, "sqlstate", getattr(cause, "pgcode", None)) != POSTGRES_UNIQUE_VIOLATION or diag is None:
        return None, frozenset()
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, diag.table_name).get(diag.constraint_name) or {}
    return diag.table_name, frozenset(found.get("columns") or ())


@contextmanager
def unique_refusal(*rules: Unique, refusal: Callable[[], Exception]) -> Iterator[None]:
    """Run the block in a savepoint (a transaction when none is open); when it violates one of `rules`, roll it
    back and raise `refusal()` (from the IntegrityError). `refusal` runs after the rollback, so it may query: it
    asks the rule's check again and returns the exception that check raises for the winner's row (the message a
    sequential request gets), with a message of its own should the check pass by then.

    Raises `refusal()` for a violation of `rules`; any other IntegrityError unchanged."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError as exc:
        if not any(rule.violated_by(exc) for rule in rules):
            raise
        raise refusal() from exc


#: The PostgreSQL advisory lock every write of a team's or a system's name takes before it checks the other kind.
NAMES_LOCK_KEY = 0x6E616D6573  # "names"


def names_lock() -> None:
    """Hold, until the current transaction ends, the lock of names across tables: a team may not look like another
    team's system nor a system like another team (catalog.services), a rule no unique constraint of one table holds.
    A write of either kind stores its row, takes this lock and then checks the other kind: of a team rename and a
    system create of look-alike names at the same moment, the later to take the lock sees the other's committed row
    and is refused (the fifth break-it pass of issue 13: both were stored in 8 of 15 pairs). PostgreSQL:
    pg_advisory_xact_lock; SQLite needs none, its transactions hold the database's write lock from their start
    (config/settings.py: transaction_mode IMMEDIATE). Call it inside transaction.atomic()."""
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [NAMES_LOCK_KEY])
