"""The site image (docker/site/): built from Debian's packages by docker/site/build.sh, its release role migrates and
collects the static files, its web role serves the board (issue 14 "Images and compose").

Needs a real dockerd (tests/docker_fixtures.py starts one when installed); the build takes minutes the first time
(debootstrap of the Debian base, Debian packages, the Python requirements), then hits the build cache."""
from __future__ import annotations

import os
import re
import secrets
import socket
import subprocess
import time
import uuid
from pathlib import Path

import httpx
import pytest

pytestmark = [pytest.mark.slow, pytest.mark.docker]
ROOT = Path(__file__).resolve().parent.parent
IMAGE = "repogenesis/site:test"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_site_image_builds_and_its_web_role_serves_the_board(dockerd, tmp_path):
    build = subprocess.run(["docker/site/build.sh"], cwd=ROOT, capture_output=True, text=True, timeout=3000,
                           env={**os.environ, "TAG": "test", "WITH_JAVA": "0", "SERVICES": "0"})
    assert build.returncode == 0, build.stdout + build.stderr
    port, var_dir, name = _free_port(), tmp_path / "var", f"rg-site-test-{uuid.uuid4().hex[:8]}"
    var_dir.mkdir()
    # dockerd runs with --bridge=none here: the containers share the host's network and listen on loopback.
    run = ["docker", "run", "--rm", "--network", "host", "-v", f"{var_dir}:/var/lib/leaderboard",
           "-e", f"SECRET_KEY={secrets.token_urlsafe(50)}", "-e", "ALLOWED_HOSTS=127.0.0.1",
           "-e", "DJANGO_SECURE_SSL_REDIRECT=0", "-e", f"GUNICORN_BIND=127.0.0.1:{port}", "-e", "WEB_CONCURRENCY=2"]
    release = subprocess.run([*run, IMAGE, "release"], capture_output=True, text=True, timeout=900)
    assert release.returncode == 0, release.stdout + release.stderr
    assert (var_dir / "staticfiles" / "staticfiles.json").is_file()  # collectstatic ran, with hashed names
    demo = subprocess.run([*run, IMAGE, "manage", "import_benchmark", "benchmarks/demo", "--skip-reference-check"],
                          capture_output=True, text=True, timeout=600)
    assert demo.returncode == 0, demo.stdout + demo.stderr
    web = subprocess.run([*[a for a in run if a != "--rm"], "-d", "--name", name, IMAGE, "web"],
                         capture_output=True, text=True, timeout=120)
    assert web.returncode == 0, web.stderr
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                page = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
                break
            except httpx.TransportError:
                state = subprocess.run(["docker", "inspect", "-f", "{{.State.Running}}", name],
                                       capture_output=True, text=True).stdout.strip()
                logs = subprocess.run(["docker", "logs", name], capture_output=True, text=True)
                assert state == "true" and time.monotonic() < deadline, logs.stdout + logs.stderr
                time.sleep(0.5)
        assert page.status_code == 200
        assert "Verified split</h1>" in page.text  # the demo benchmark's board
        script = re.search(r'src="(/static/vendor/plotly-partial\.min\.[0-9a-f]{12}\.js)"', page.text)
        assert script, page.text[:2000]
        bundle = httpx.get(f"http://127.0.0.1:{port}{script.group(1)}", headers={"Accept-Encoding": "gzip"}, timeout=30)
        assert bundle.status_code == 200 and bundle.headers["content-encoding"] == "gzip"
        assert "immutable" in bundle.headers["cache-control"]
        logs = subprocess.run(["docker", "logs", name], capture_output=True, text=True)
        assert re.search(r'"GET / HTTP/1\.1" 200', logs.stdout), logs.stdout + logs.stderr  # access log on stdout
        user = subprocess.run(["docker", "top", name, "-o", "user,args"], capture_output=True, text=True).stdout
        assert all(line.startswith("leaderboard") for line in user.splitlines()[1:] if "gunicorn" in line), user
    finally:
        subprocess.run(["docker", "rm", "-f", name], capture_output=True)
