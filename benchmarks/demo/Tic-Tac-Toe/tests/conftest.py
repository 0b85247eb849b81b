import os
import time

import pytest
import requests

BASE_URL = os.environ.get("API_BASE_URL") or os.environ.get("BASE_URL") or "http://localhost:8084"


@pytest.fixture(scope="session", autouse=True)
def server_ready():
    deadline = time.time() + 10
    while True:
        try:
            requests.get(f"{BASE_URL}/health", timeout=5).raise_for_status()
            return
        except requests.RequestException:
            if time.time() > deadline:
                pytest.skip("tic-tac-toe server is down")
            time.sleep(0.5)


@pytest.fixture
def base_url():
    return BASE_URL.rstrip("/")
