import os
import time

import pytest
import requests

BASE_URL = os.environ.get("API_BASE_URL") or os.environ.get("BASE_URL") or "http://localhost:8081"


@pytest.fixture(scope="session", autouse=True)
def wait_for_service():
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            if requests.get(f"{BASE_URL}/health", timeout=5).ok:
                return
        except requests.RequestException:
            pass
        time.sleep(0.5)
    pytest.skip("bookstore service is not running")


@pytest.fixture
def api():
    return BASE_URL.rstrip("/")


@pytest.fixture
def new_book(api):
    def make(**overrides):
        payload = {"title": "Dune", "author": "Frank Herbert", "price": 9.99, "stock": 3}
        payload.update(overrides)
        resp = requests.post(f"{api}/books", json=payload, timeout=5)
        assert resp.status_code == 201, resp.text
        return resp.json()
    return make
