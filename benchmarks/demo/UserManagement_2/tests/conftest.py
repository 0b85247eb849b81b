import os
import time
import uuid

import pytest
import requests

BASE_URL = os.environ.get("API_BASE_URL") or os.environ.get("BASE_URL") or "http://localhost:8080"


@pytest.fixture(scope="session", autouse=True)
def wait_for_health():
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            if requests.get(BASE_URL.rstrip("/") + "/health", timeout=5).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.5)
    pytest.skip("user management service unavailable")


@pytest.fixture
def base_url():
    return BASE_URL.rstrip("/")


@pytest.fixture
def account(base_url):
    """Register a fresh user and log in; returns (user, password, auth headers)."""
    name = "u_" + uuid.uuid4().hex[:12]
    password = "s3cret-pass"
    resp = requests.post(f"{base_url}/auth/register", timeout=5,
                         json={"username": name, "password": password, "email": f"{name}@example.com"})
    assert resp.status_code == 201, resp.text
    login = requests.post(f"{base_url}/auth/login", json={"username": name, "password": password}, timeout=5)
    assert login.status_code == 200, login.text
    return resp.json(), password, {"Authorization": f"Bearer {login.json()['token']}"}
