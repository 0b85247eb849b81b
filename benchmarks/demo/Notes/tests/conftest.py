import os
import time

import pytest
import requests

BASE_URL = os.environ.get("API_BASE_URL") or os.environ.get("BASE_URL") or "http://localhost:8082"


@pytest.fixture(scope="session", autouse=True)
def notes_service():
    for _ in range(20):
        try:
            if requests.get(f"{BASE_URL}/health", timeout=5).status_code == 200:
                return BASE_URL
        except requests.RequestException:
            pass
        time.sleep(0.5)
    pytest.skip("notes service did not answer /health within 10 s")


@pytest.fixture
def base_url():
    return BASE_URL.rstrip("/")


@pytest.fixture
def create_note(base_url):
    def _create(**fields):
        payload = {"title": "Groceries", "content": "eggs", "tags": ["home"]}
        payload.update(fields)
        resp = requests.post(f"{base_url}/api/notes", json=payload, timeout=5)
        assert resp.status_code == 201, resp.text
        return resp.json()
    return _create
