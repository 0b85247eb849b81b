import os
import time

import pytest
import requests

BASE_URL = os.environ.get("API_BASE_URL") or os.environ.get("BASE_URL") or "http://localhost:8080"


@pytest.fixture(scope="session", autouse=True)
def service_up():
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            if requests.get(f"{BASE_URL}/health", timeout=5).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.5)
    pytest.skip(f"service not reachable at {BASE_URL}")


@pytest.fixture
def base_url():
    return BASE_URL.rstrip("/")


@pytest.fixture
def todo(base_url):
    resp = requests.post(f"{base_url}/api/todos", json={"title": "fixture item"}, timeout=5)
    assert resp.status_code == 201
    return resp.json()
