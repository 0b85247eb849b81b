"""Shared fixtures: the demo benchmark imported once per session, users with tokens, demo archives, sandboxes."""
from __future__ import annotations

import itertools
import os
import sys
import threading
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.docker_fixtures import docker_backend, docker_client, dockerd  # noqa: F401 (fixtures for every suite)

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "benchmarks" / "demo"
DEMO_SUBMISSIONS = ROOT / "benchmarks" / "demo-submissions"


def database_url() -> str:
    """The DATABASE_URL of the database this test run uses (the test database, SQLite or PostgreSQL), for a
    subprocess (a worker, another web process) that must see the same rows."""
    from django.db import connection
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def import_demo():
    """Import benchmarks/demo (no reference check) and return its current Benchmark row."""
    from catalog.models import Benchmark

    call_command("import_benchmark", str(DEMO), "--skip-reference-check", stdout=open("/dev/null", "w"))
    return Benchmark.objects.get(name="demo", is_current=True)


def race(*calls: Callable[[], object], timeout: float = 120) -> list:
    """Run each of `calls` in a thread of its own, all started together, each with its own database connection
    (closed when it ends): what a transactional test (`django_db(transaction=True)`) uses for simultaneous requests.
    Returns what each call returned, in order, or the exception it raised in its place. A test client that races
    needs `raise_request_exception=False`: it then answers a view's unhandled exception with the 500 (by default it
    re-raises it, and Django's got_request_exception signal hands it to every client in flight, in every thread)."""
    from django.db import connection

    results: list = [None] * len(calls)

    def run(index: int, call: Callable[[], object]) -> None:
        try:
            results[index] = call()
        except Exception as exc:  # noqa: BLE001 (returned for the test to show)
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    return results


def meet_after(monkeypatch, owner, name: str, parties: int, *, callers: tuple[str, ...] = (),
               when: Callable[..., bool] = lambda *args, **kwargs: True) -> None:
    """Patch `owner.name` (a class's method or a module's function) so that the first `parties` calls to it that
    count (made from a module whose name starts with one of `callers`, when given, and for which `when(*args,
    **kwargs)` is true: each racing request's check) each return only once all of them have returned: every
    request has passed its check before any of them writes. Later calls pass straight through. A party that never
    comes breaks the rendezvous after 30 s (threading.BrokenBarrierError in the others)."""
    original = getattr(owner, name)
    barrier = threading.Barrier(parties)
    counted = itertools.count()

    def wrapped(*args, **kwargs):
        result = original(*args, **kwargs)
        caller = sys._getframe(1).f_globals.get("__name__", "")
        if (not callers or caller.startswith(callers)) and when(*args, **kwargs) and next(counted) < parties:
            barrier.wait(timeout=30)
        return result

    monkeypatch.setattr(owner, name, wrapped)


@pytest.fixture(scope="session")
def demo_benchmark_id(django_db_setup, django_db_blocker) -> int:
    """The demo benchmark, imported once into the test database for the whole session."""
    with django_db_blocker.unblock():
        return import_demo().pk


@pytest.fixture
def demo_split(db, demo_benchmark_id):
    from catalog.models import Split

    return Split.objects.get(benchmark_id=demo_benchmark_id, name="verified")


@pytest.fixture
def make_user(db):
    """make_user(name) -> (User, API token key), with a personal team."""
    from django.contrib.auth.models import User
    from rest_framework.authtoken.models import Token

    from catalog.services import team_for_user

    def make(name: str = "alice"):
        user = User.objects.create_user(username=name, password=f"pw-{name}-Secure-123")
        team_for_user(user=user)
        return user, Token.objects.create(user=user).key

    return make


@pytest.fixture
def signed_in(make_user, client):
    """signed_in(name) -> (User, the API token's header): make_user(name), signed in on `client` for the web pages,
    and the keyword arguments that authenticate the same user's API calls (`client.post(..., **auth)`)."""

    def sign_in(name: str = "alice"):
        user, token = make_user(name)
        client.force_login(user)
        return user, {"HTTP_AUTHORIZATION": f"Token {token}"}

    return sign_in


@pytest.fixture
def demo_zip():
    """demo_zip('agent-alpha') -> bytes of a zip with that demo submission's task folders."""
    from submissions.archives import zip_submission_folder

    return lambda name: zip_submission_folder(DEMO_SUBMISSIONS / name)


@pytest.fixture
def open_box(tmp_path):
    """open_box(backend, port=...) -> (sandbox, work_dir owned by the service user, key); closed after the test."""
    from core.sandbox import Role

    opened = []

    def make(backend, *, port: int = 18080):
        key = f"t{uuid.uuid4().hex[:10]}"
        work = tmp_path / key
        work.mkdir(mode=0o755)
        sandbox = backend.open_task(key=key, port=port, work_dir=work)
        opened.append(sandbox)
        owner = sandbox.owner(Role.SERVICE)
        if owner:
            os.chown(work, *owner)
        return sandbox, work, key

    yield make
    for sandbox in opened:
        sandbox.close()


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Every test starts with an empty Django cache: the board cache is keyed by a version stored in the database,
    and a test's rolled-back transaction takes the version back to one whose cached entries another test filled."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture
def fresh_rates(db):
    """The throttles' cache (settings.THROTTLE_CACHE_ALIAS: the sign-up, e-mail and token rates count there) empty
    before and after the test; yields the cache, for a test that empties it again on the way. A module whose tests
    sign up or ask for tokens in bulk uses it with `pytestmark = pytest.mark.usefixtures("fresh_rates")`."""
    from django.conf import settings
    from django.core.cache import caches

    rates = caches[settings.THROTTLE_CACHE_ALIAS]
    rates.clear()
    yield rates
    rates.clear()


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    """Passwords hashed with Django's fastest hasher in tests (Django's testing docs, "Speeding up the tests"): the
    production hasher's deliberate cost made the 15-attempt lockout tests take two minutes on a loaded machine."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
