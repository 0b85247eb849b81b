import pytest
import requests


def test_me(base_url, account):
    user, _, headers = account
    resp = requests.get(f"{base_url}/auth/me", headers=headers, timeout=5)
    assert resp.status_code == 200
    assert resp.json() == user


@pytest.mark.parametrize("headers", [
    {},
    {"Authorization": "Bearer not-a-real-token"},
    {"Authorization": "Token abc"},
])
def test_users_require_token(base_url, headers):
    resp = requests.get(f"{base_url}/users", headers=headers, timeout=5)
    assert resp.status_code == 401


def test_list_users(base_url, account):
    user, _, headers = account
    resp = requests.get(f"{base_url}/users", headers=headers, timeout=5)
    assert resp.status_code == 200
    ids = [u["id"] for u in resp.json()]
    assert user["id"] in ids
    assert ids == sorted(ids)


def test_get_user(base_url, account):
    user, _, headers = account
    resp = requests.get(f"{base_url}/users/{user['id']}", headers=headers, timeout=5)
    assert resp.status_code == 200
    assert resp.json() == user


def test_get_unknown_user(base_url, account):
    _, _, headers = account
    assert requests.get(f"{base_url}/users/999999", headers=headers, timeout=5).status_code == 404


def test_update_user_email(base_url, account):
    user, _, headers = account
    resp = requests.put(f"{base_url}/users/{user['id']}", json={"email": "new@example.org"}, headers=headers,
                        timeout=5)
    assert resp.status_code == 200
    assert resp.json() == {**user, "email": "new@example.org"}


def test_update_user_password(base_url, account):
    user, old_password, headers = account
    resp = requests.put(f"{base_url}/users/{user['id']}", json={"password": "brand-new-pass"}, headers=headers,
                        timeout=5)
    assert resp.status_code == 200
    login = f"{base_url}/auth/login"
    assert requests.post(login, json={"username": user["username"], "password": old_password},
                         timeout=5).status_code == 401
    assert requests.post(login, json={"username": user["username"], "password": "brand-new-pass"},
                         timeout=5).status_code == 200


def test_update_user_invalid(base_url, account):
    user, _, headers = account
    resp = requests.put(f"{base_url}/users/{user['id']}", json={"email": "broken"}, headers=headers, timeout=5)
    assert resp.status_code == 400


def test_delete_user(base_url, account):
    user, _, headers = account
    resp = requests.delete(f"{base_url}/users/{user['id']}", headers=headers, timeout=5)
    assert resp.status_code == 204
    assert requests.get(f"{base_url}/auth/me", headers=headers, timeout=5).status_code == 401
