"""A real dockerd for the docker backend's tests (imported by tests/conftest.py, so every suite can use the docker
backend): started here when installed but not running, with the sandbox images built by docker/build-images.sh. A machine without docker fails these tests (it does not
skip them): `apt-get install -y docker.io`."""
from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
DOCKERD_ARGS = ["--iptables=false", "--ip-forward=false", "--bridge=none"]


def _reachable() -> bool:
    import docker

    try:
        docker.from_env(timeout=5).ping()
        return True
    except Exception:  # noqa: BLE001
        return False


@pytest.fixture(scope="session")
def dockerd(tmp_path_factory):
    """A reachable dockerd with the sandbox images built. Starts (and afterwards stops) one if needed."""
    if not _reachable() and not shutil.which("dockerd"):
        pytest.fail("docker is not installed: the docker backend's tests need `apt-get install -y docker.io` "
                    "(dockerd is started by the tests)", pytrace=False)
    started = None
    if not _reachable():
        if os.geteuid() != 0:
            pytest.fail("dockerd is installed but not running, and the tests are not root: start it with "
                        f"`sudo dockerd {' '.join(DOCKERD_ARGS)} &`", pytrace=False)
        log = tmp_path_factory.mktemp("dockerd") / "dockerd.log"
        started = subprocess.Popen(["dockerd", *DOCKERD_ARGS], stdout=open(log, "wb"), stderr=subprocess.STDOUT,
                                   start_new_session=True)
        deadline = time.monotonic() + 60
        while not _reachable():
            if started.poll() is not None or time.monotonic() > deadline:
                started.kill()
                pytest.fail(f"dockerd did not come up: {log.read_text()[-3000:]}", pytrace=False)
            time.sleep(0.3)
    build = subprocess.run([str(REPO_ROOT / "docker" / "build-images.sh")], capture_output=True, text=True)
    if build.returncode != 0:
        pytest.fail(f"docker/build-images.sh failed: {build.stdout}{build.stderr}", pytrace=False)
    yield
    if started is not None:
        started.terminate()
        try:
            started.wait(timeout=30)
        except subprocess.TimeoutExpired:
            started.kill()


@pytest.fixture
def docker_client(dockerd):
    import docker

    return docker.from_env()


@pytest.fixture
def docker_backend(dockerd):
    from core.sandbox import get_backend

    return get_backend("docker")
