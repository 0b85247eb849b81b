"""A throw-away production site for the bench scripts: its environment (DJANGO_DEBUG=0, SQLite, a temporary VAR_DIR),
the release step (scripts/release.sh: migrate + collectstatic) and gunicorn (config/gunicorn.py) on 127.0.0.1.

Used by bench/board_speed.py and bench/upload_memory.py.
"""
from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable


def free_port() -> int:
    """A TCP port nobody listens on at 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def site_env(var_dir: Path, port: int, **extra: str) -> dict[str, str]:
    """The environment of a production site in `var_dir` listening on 127.0.0.1:`port` (2 gunicorn workers, a fresh
    SECRET_KEY, no HTTPS redirect, warnings only in the log); `extra` adds or overrides variables."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_") and k not in ("PYTEST_VERSION",)}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", DJANGO_DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50),
               VAR_DIR=str(var_dir), ALLOWED_HOSTS="127.0.0.1", DJANGO_SECURE_SSL_REDIRECT="0", PYTHON=PY,
               GUNICORN_BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY="2", PYTHONPATH=str(ROOT), LOG_LEVEL="WARNING")
    env.update(extra)
    return env


def run(cmd: list[str], env: dict[str, str]) -> str:
    """Run `cmd` in the checkout with `env`; its stdout. Exits the script with the output when it fails."""
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{proc.stdout}{proc.stderr}")
    return proc.stdout


def release(env: dict[str, str]) -> None:
    """The release step (scripts/release.sh) in the site's environment."""
    run(["scripts/release.sh"], env)


def gunicorn_start(env: dict[str, str], var_dir: Path, *, ready_path: str = "/", timeout: float = 60) -> subprocess.Popen:
    """Start gunicorn (config/gunicorn.py, no access log, errors to `var_dir`/gunicorn.err) and return it once
    GET `ready_path` answers 2xx. Exits the script with gunicorn's log when it does not within `timeout` s."""
    web = subprocess.Popen([str(Path(PY).parent / "gunicorn"), "-c", "config/gunicorn.py", "config.wsgi",
                            "--access-logfile", "/dev/null"], cwd=ROOT, env=env,
                           stdout=subprocess.DEVNULL, stderr=open(var_dir / "gunicorn.err", "wb"))
    url = f"http://{env['GUNICORN_BIND']}{ready_path}"
    deadline = time.monotonic() + timeout
    while True:
        try:
            httpx.get(url, timeout=5).raise_for_status()
            return web
        except httpx.HTTPError:
            if web.poll() is not None or time.monotonic() > deadline:
                web.kill()
                sys.exit("gunicorn did not answer: " + (var_dir / "gunicorn.err").read_text()[-3000:])
            time.sleep(0.3)
