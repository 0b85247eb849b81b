import uuid

import pytest
import requests


def fresh_name():
    return "n_" + uuid.uuid4().hex[:12]


def test_health(base_url):
    resp = requests.get(f"{base_url}/health", timeout=5)
    assert resp.status_code == 200
    assert resp.json() == {"status": "ok"}


def test_register(base_url):
    name = fresh_name()
    resp = requests.post(f"{base_url}/auth/register", timeout=5,
                         json={"username": name, "password": "password123", "email": "a@b.io"})
    assert resp.status_code == 201
    body = resp.json()
    assert body["username"] == name and body["email"] == "a@b.io"
    assert isinstance(body["id"], int)
    assert "password" not in body


@pytest.mark.parametrize("payload", [
    {"username": "ab", "password": "password123", "email": "a@b.io"},
    {"username": "valid_name", "password": "short", "email": "a@b.io"},
    {"username": "valid_name", "password": "password123", "email": "not-an-email"},
    {"password": "password123", "email": "a@b.io"},
])
def test_register_invalid(base_url, payload):
    resp = requests.post(f"{base_url}/auth/register", json=payload, timeout=5)
    assert resp.status_code == 400


def test_register_duplicate(base_url, account):
    user, _, _ = account
    resp = requests.post(f"{base_url}/auth/register", timeout=5,
                         json={"username": user["username"], "password": "password123", "email": "x@y.z"})
    assert resp.status_code == 409


def test_login(base_url, account):
    user, password, _ = account
    resp = requests.post(f"{base_url}/auth/login", json={"username": user["username"], "password": password},
                         timeout=5)
    assert resp.status_code == 200
    assert isinstance(resp.json()["token"], str) and resp.json()["token"]
    assert resp.json()["user"] == user


def test_login_wrong_password(base_url, account):
    user, _, _ = account
    resp = requests.post(f"{base_url}/auth/login", json={"username": user["username"], "password": "nope-nope"},
                         timeout=5)
    assert resp.status_code == 401
