"""The sign-up, e-mail and API token rates count in a cache of their own (settings.THROTTLE_CACHE_ALIAS): shared
by every web process (the database by default, Redis with THROTTLE_CACHE_URL or CACHE_URL), never the board's
per-process local memory, whose 300 entries a crawler of distinct board query strings evicted (the counters went
with them) and which each gunicorn worker kept apart (2 workers allowed twice the rate)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache, caches
from django.test import Client

from tests.conftest import database_url

ADDRESS = "192.0.2.44"


def _sign_up(client: Client, n: int) -> int:
    return client.post("/signup/", {"username": f"crowd{n}", "email": f"crowd{n}@example.org",
                                    "password1": "Very-Long-Pass-123", "password2": "Very-Long-Pass-123"}).status_code


def test_the_throttle_cache_is_its_own_and_shared_between_processes():
    throttle = django_settings.CACHES[django_settings.THROTTLE_CACHE_ALIAS]
    assert django_settings.THROTTLE_CACHE_ALIAS != "default"
    assert "locmem" not in throttle["BACKEND"]
    assert django_settings.RATELIMIT_USE_CACHE == django_settings.THROTTLE_CACHE_ALIAS


def test_a_flood_of_board_entries_does_not_evict_the_sign_up_count(db, settings):
    settings.SIGNUP_RATE = "3/h"
    client = Client(REMOTE_ADDR=ADDRESS)
    codes = []
    for n in range(3):
        codes.append(_sign_up(client, n))
        client.logout()
    for n in range(400):  # what 400 board requests with distinct query strings store in the board's cache
        cache.set(f"board-page:?page={n}", b"x" * 64, 300)
    codes.append(_sign_up(client, 3))
    assert codes == [302, 302, 302, 429]


@pytest.mark.django_db(transaction=True)
def test_the_api_token_rate_counts_requests_answered_by_another_process(settings, make_user):
    caches[settings.THROTTLE_CACHE_ALIAS].clear()
    make_user("rated")  # right passwords: the sign-in lockout stays out of it
    other_process = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        f"c = Client(REMOTE_ADDR={ADDRESS!r})\n"
        "print([c.post('/api/v1/auth/token/', {'username': 'rated', 'password': 'pw-rated-Secure-123'})"
        ".status_code "
        "for _ in range(6)])\n")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": database_url()}
    done = subprocess.run([sys.executable, "-c", other_process], env=env, capture_output=True, text=True,
                          timeout=120, cwd=django_settings.BASE_DIR)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "429" not in done.stdout, done.stdout  # 6 of the 10 a minute
    client = Client(REMOTE_ADDR=ADDRESS)
    answers = [client.post("/api/v1/auth/token/", {"username": "rated", "password": "pw-rated-Secure-123"})
               for _ in range(5)]
    assert [a.status_code for a in answers] == [200] * 4 + [429], answers
    assert "throttled" in answers[4].json()["detail"]
