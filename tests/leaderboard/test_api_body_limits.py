"""Bodies the API refuses before work (fresh-user break-it pass): an oversized JSON body is a 413 before it is read,
and a deeply nested one a 400, both with no login, never a 500."""
import json

import pytest


@pytest.mark.django_db
def test_an_oversized_json_body_is_refused_before_it_is_read(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024
    body = json.dumps({"username": "x" * 4096, "password": "y"})

    response = client.post("/api/v1/auth/token/", data=body, content_type="application/json")

    assert response.status_code == 413
    assert "limited to 1,024 bytes" in response.json()["detail"]


@pytest.mark.django_db
def test_a_deeply_nested_json_body_is_a_400(client):
    body = "[" * 100_000 + "]" * 100_000

    response = client.post("/api/v1/auth/token/", data=body, content_type="application/json")

    assert response.status_code == 400 and "nested too deeply" in response.json()["detail"]
