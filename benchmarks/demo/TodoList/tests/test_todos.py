import pytest
import requests


def test_health(base_url):
    resp = requests.get(f"{base_url}/health", timeout=5)
    assert resp.status_code == 200
    assert resp.json() == {"status": "ok"}


def test_create_todo_defaults(base_url):
    resp = requests.post(f"{base_url}/api/todos", json={"title": "Write report"}, timeout=5)
    assert resp.status_code == 201
    body = resp.json()
    assert isinstance(body["id"], int)
    assert body["title"] == "Write report"
    assert body["completed"] is False


def test_create_todo_completed(base_url):
    resp = requests.post(f"{base_url}/api/todos", json={"title": "Done already", "completed": True}, timeout=5)
    assert resp.status_code == 201
    assert resp.json()["completed"] is True


@pytest.mark.parametrize("payload", [
    {},
    {"title": ""},
    {"title": "   "},
    {"title": 42},
    {"title": "x" * 201},
    {"title": "ok", "completed": "yes"},
])
def test_create_todo_invalid(base_url, payload):
    resp = requests.post(f"{base_url}/api/todos", json=payload, timeout=5)
    assert resp.status_code == 400
    assert "error" in resp.json()


def test_get_todo(base_url, todo):
    resp = requests.get(f"{base_url}/api/todos/{todo['id']}", timeout=5)
    assert resp.status_code == 200
    assert resp.json() == todo


def test_get_unknown_todo(base_url):
    resp = requests.get(f"{base_url}/api/todos/999999", timeout=5)
    assert resp.status_code == 404


def test_list_contains_created(base_url, todo):
    resp = requests.get(f"{base_url}/api/todos", timeout=5)
    assert resp.status_code == 200
    assert todo["id"] in [t["id"] for t in resp.json()]


def test_list_filter_completed(base_url):
    done = requests.post(f"{base_url}/api/todos", json={"title": "a", "completed": True}, timeout=5).json()
    open_ = requests.post(f"{base_url}/api/todos", json={"title": "b"}, timeout=5).json()
    resp = requests.get(f"{base_url}/api/todos", params={"completed": "true"}, timeout=5)
    assert resp.status_code == 200
    ids = [t["id"] for t in resp.json()]
    assert done["id"] in ids and open_["id"] not in ids
    assert all(t["completed"] is True for t in resp.json())


def test_update_todo(base_url, todo):
    resp = requests.put(f"{base_url}/api/todos/{todo['id']}", json={"completed": True}, timeout=5)
    assert resp.status_code == 200
    assert resp.json() == {"id": todo["id"], "title": todo["title"], "completed": True}
    again = requests.get(f"{base_url}/api/todos/{todo['id']}", timeout=5).json()
    assert again["completed"] is True


def test_update_todo_invalid(base_url, todo):
    resp = requests.put(f"{base_url}/api/todos/{todo['id']}", json={"title": ""}, timeout=5)
    assert resp.status_code == 400


def test_update_unknown_todo(base_url):
    resp = requests.put(f"{base_url}/api/todos/999999", json={"title": "x"}, timeout=5)
    assert resp.status_code == 404


def test_delete_todo(base_url, todo):
    resp = requests.delete(f"{base_url}/api/todos/{todo['id']}", timeout=5)
    assert resp.status_code == 204
    assert requests.get(f"{base_url}/api/todos/{todo['id']}", timeout=5).status_code == 404
    assert requests.delete(f"{base_url}/api/todos/{todo['id']}", timeout=5).status_code == 404
