"""config/settings.py: importing it writes nothing and creates no folder; production values need DJANGO_DEBUG=0."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
READ = ("import json, django; from django.conf import settings; {setup}"
        "print(json.dumps({{'var_dir': str(settings.VAR_DIR), 'debug': settings.DEBUG, "
        "'db': settings.DATABASES['default']['ENGINE'], 'ssl_redirect': settings.SECURE_SSL_REDIRECT}}))")


def _import_settings(var_dir: Path, *, setup: bool = False, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DJANGO_DEBUG", "DJANGO_READ_DOT_ENV")}
    return subprocess.run([sys.executable, "-c", READ.format(setup="django.setup(); " if setup else "")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", "VAR_DIR": str(var_dir), **env})


@pytest.mark.parametrize("setup", [False, True], ids=["import", "django.setup"])
@pytest.mark.parametrize("mode", [{}, {"DJANGO_DEBUG": "0", "SECRET_KEY": "x" * 60}], ids=["development", "production"])
def test_reading_the_settings_creates_nothing(tmp_path, mode, setup):
    var_dir = tmp_path / "var-not-there"
    proc = _import_settings(var_dir, setup=setup, **mode)
    assert proc.returncode == 0, proc.stderr
    read = json.loads(proc.stdout.strip().splitlines()[-1])
    assert read["var_dir"] == str(var_dir)
    assert read["debug"] is not bool(mode)
    assert list(tmp_path.iterdir()) == []


def test_production_values_come_with_djangodebug_0_only(tmp_path):
    dev = json.loads(_import_settings(tmp_path / "v").stdout.strip().splitlines()[-1])
    prod = json.loads(_import_settings(tmp_path / "v", DJANGO_DEBUG="0", SECRET_KEY="x" * 60).stdout.splitlines()[-1])
    assert (dev["debug"], dev["ssl_redirect"]) == (True, False)
    assert (prod["debug"], prod["ssl_redirect"]) == (False, True)


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    proc = _import_settings(tmp_path / "var-not-there", DJANGO_DEBUG="0")
    assert proc.returncode != 0
    assert "needs SECRET_KEY" in proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_the_sqlite_backend_makes_the_database_folder_on_first_connection(tmp_path, django_db_blocker):
    from django.db.utils import ConnectionHandler

    name = tmp_path / "new" / "folder" / "db.sqlite3"
    handler = ConnectionHandler({"default": {"ENGINE": "config.sqlite3", "NAME": str(name)}})
    with django_db_blocker.unblock():
        try:
            with handler["default"].cursor() as cursor:
                cursor.execute("select 1")
        finally:
            handler.close_all()
    assert name.is_file()
    assert handler["default"].vendor == "sqlite"


def test_the_celery_app_makes_the_broker_folders_when_it_first_publishes(tmp_path):
    var_dir = tmp_path / "var-not-there"
    clean = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "DJANGO_READ_DOT_ENV")}
    proc = subprocess.run([sys.executable, "-c", "import django; django.setup(); from config.celery import app; "
                           "app.send_task('evaluation.tasks.runs_recover')"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", "VAR_DIR": str(var_dir)})
    assert proc.returncode == 0, proc.stderr
    assert len(list((var_dir / "broker" / "queue").iterdir())) == 1
