"""Production settings (DJANGO_DEBUG=0, config/settings.py "Production") and the web role as deployed: gunicorn with
config/gunicorn.py, static files collected by scripts/release.sh and served compressed by whitenoise.

The fast tests read the settings and run `manage.py check --deploy` in a subprocess (the settings are read once per
process); the slow one runs the release steps and gunicorn in production mode and talks HTTP to it."""
from __future__ import annotations

import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
READ = ("import json, django; django.setup(); from django.conf import settings as s; print(json.dumps({"
        "'proxy': s.SECURE_PROXY_SSL_HEADER, 'hsts': s.SECURE_HSTS_SECONDS, 'session_secure': s.SESSION_COOKIE_SECURE,"
        "'csrf_secure': s.CSRF_COOKIE_SECURE, 'session_httponly': s.SESSION_COOKIE_HTTPONLY,"
        "'csrf_httponly': s.CSRF_COOKIE_HTTPONLY, 'hosts': s.ALLOWED_HOSTS, 'origins': s.CSRF_TRUSTED_ORIGINS,"
        "'static': s.STORAGES['staticfiles']['BACKEND'], 'finders': s.WHITENOISE_USE_FINDERS, 'debug': s.DEBUG}))")


def production_env(var_dir: Path, **extra: str) -> dict[str, str]:
    """The environment of a production process: DJANGO_DEBUG=0, a real secret key, its own VAR_DIR."""
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("DJANGO_", "SECURE_", "GUNICORN_", "WEB_CONCURRENCY")) and k not in (
                 "SECRET_KEY", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "PYTEST_VERSION", "PORT")}
    return {**clean, "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50), "VAR_DIR": str(var_dir), **extra}


def _settings(env: dict[str, str]) -> dict:
    proc = subprocess.run([PY, "-c", READ], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_check_deploy_reports_nothing_with_production_settings(tmp_path):
    """`manage.py check --deploy` (Django's security checks and drf-spectacular's schema check, which reports
    operationId collisions) is clean in production; in development it does warn, so the check is really run."""
    cmd = [PY, "manage.py", "check", "--deploy", "--fail-level", "WARNING"]
    prod = subprocess.run(cmd, cwd=ROOT, env=production_env(tmp_path / "var"), capture_output=True, text=True,
                          timeout=300)
    assert prod.returncode == 0, prod.stdout + prod.stderr
    assert "System check identified no issues" in prod.stdout
    dev_env = {k: v for k, v in production_env(tmp_path / "var").items() if k != "DJANGO_DEBUG"}
    dev = subprocess.run(cmd, cwd=ROOT, env=dev_env, capture_output=True, text=True, timeout=300)
    assert dev.returncode != 0 and "security.W018" in dev.stdout + dev.stderr  # DEBUG on


def test_production_cookies_are_secure_and_httponly_with_hsts_and_hosts_from_the_environment(tmp_path):
    read = _settings(production_env(tmp_path / "var", ALLOWED_HOSTS="board.example.org",
                                    CSRF_TRUSTED_ORIGINS="https://board.example.org"))
    assert read["debug"] is False
    assert (read["session_secure"], read["csrf_secure"], read["session_httponly"], read["csrf_httponly"]) == (
        True, True, True, True)
    assert read["hsts"] > 0
    assert read["hosts"] == ["board.example.org"] and read["origins"] == ["https://board.example.org"]
    assert read["static"] == "whitenoise.storage.CompressedManifestStaticFilesStorage" and read["finders"] is False


def test_the_proxy_scheme_header_is_trusted_only_when_told(tmp_path):
    assert _settings(production_env(tmp_path / "var"))["proxy"] is None
    told = _settings(production_env(tmp_path / "var", DJANGO_SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto"))
    assert told["proxy"] == ["HTTP_X_FORWARDED_PROTO", "https"]


def test_development_keeps_serving_static_files_without_collectstatic(tmp_path):
    env = {k: v for k, v in production_env(tmp_path / "var").items() if k != "DJANGO_DEBUG"}
    read = _settings(env)
    assert read["static"] == "whitenoise.storage.CompressedStaticFilesStorage" and read["finders"] is True


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_the_web_role_serves_hashed_compressed_static_files_behind_a_tls_proxy(tmp_path):
    """The release steps then gunicorn with config/gunicorn.py, as the site image's web role runs them: the page
    links the hashed plotly bundle (async), served as brotli with a 10-year immutable lifetime; plain HTTP is
    redirected to HTTPS; HSTS and Secure+HttpOnly cookies; WEB_CONCURRENCY workers; an access log line on stdout."""
    port = _free_port()
    env = production_env(tmp_path / "var", PYTHON=PY, DJANGO_SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto",
                         WEB_CONCURRENCY="3", GUNICORN_BIND=f"127.0.0.1:{port}", ALLOWED_HOSTS="127.0.0.1")
    release = subprocess.run(["scripts/release.sh"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert release.returncode == 0, release.stderr
    imported = subprocess.run([PY, "manage.py", "import_benchmark", "benchmarks/demo", "--skip-reference-check"],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert imported.returncode == 0, imported.stderr
    out, err = tmp_path / "gunicorn.out", tmp_path / "gunicorn.err"
    web = subprocess.Popen([str(Path(PY).parent / "gunicorn"), "-c", "config/gunicorn.py", "config.wsgi"], cwd=ROOT,
                           env=env, stdout=open(out, "wb"), stderr=open(err, "wb"), start_new_session=True)
    base, https = f"http://127.0.0.1:{port}", {"X-Forwarded-Proto": "https"}
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(base + "/", timeout=2)
                break
            except httpx.TransportError:
                assert web.poll() is None and time.monotonic() < deadline, err.read_text()[-3000:]
                time.sleep(0.3)
        plain = httpx.get(base + "/", timeout=10)
        assert plain.status_code == 301 and plain.headers["location"].startswith("https://")
        page = httpx.get(base + "/", headers=https, timeout=30)
        assert page.status_code == 200
        assert page.headers["strict-transport-security"].startswith("max-age=")
        script = re.search(r'<script src="(/static/vendor/plotly-partial\.min\.[0-9a-f]{12}\.js)" id="plotly-js" async>',
                           page.text)
        assert script, page.text[:2000]
        bundle = httpx.get(base + script.group(1), headers={**https, "Accept-Encoding": "br"}, timeout=30)
        assert bundle.status_code == 200 and bundle.headers["content-encoding"] == "br"
        assert "immutable" in bundle.headers["cache-control"] and "max-age=315360000" in bundle.headers["cache-control"]
        assert int(bundle.headers["content-length"]) < 400_000  # 1.1 MB minified
        login = httpx.get(base + "/accounts/login/", headers=https, timeout=30)
        cookie = next(c for c in login.headers.get_list("set-cookie") if c.startswith("csrftoken="))
        assert "Secure" in cookie and "HttpOnly" in cookie
    finally:
        web.send_signal(signal.SIGTERM)
        web.wait(timeout=60)
    assert len(re.findall(r"Booting worker with pid", err.read_text())) == 3
    assert re.search(r'"GET /static/vendor/plotly-partial\.min\.[0-9a-f]{12}\.js HTTP/1\.1" 200', out.read_text())
