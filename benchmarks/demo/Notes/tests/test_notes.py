import time
import uuid

import pytest
import requests


def unique_tag():
    return "t" + uuid.uuid4().hex[:10]


def test_health(base_url):
    resp = requests.get(f"{base_url}/health", timeout=5)
    assert resp.status_code == 200
    assert resp.json() == {"status": "ok"}


def test_create_note(base_url):
    payload = {"title": "Ideas", "content": "write a leaderboard", "tags": ["work", "work", "ai"]}
    resp = requests.post(f"{base_url}/api/notes", json=payload, timeout=5)
    assert resp.status_code == 201
    note = resp.json()
    assert isinstance(note["id"], int)
    assert note["title"] == "Ideas"
    assert note["content"] == "write a leaderboard"
    assert note["tags"] == ["work", "ai"]
    assert note["created_at"] and note["updated_at"]


def test_create_note_defaults(base_url):
    resp = requests.post(f"{base_url}/api/notes", json={"title": "Only a title"}, timeout=5)
    assert resp.status_code == 201
    assert resp.json()["content"] == ""
    assert resp.json()["tags"] == []


@pytest.mark.parametrize("payload, field", [
    ({"content": "no title"}, "title"),
    ({"title": ""}, "title"),
    ({"title": "x" * 121}, "title"),
    ({"title": "ok", "tags": "home"}, "tags"),
])
def test_create_note_invalid(base_url, payload, field):
    resp = requests.post(f"{base_url}/api/notes", json=payload, timeout=5)
    assert resp.status_code == 400
    assert field in resp.json()


def test_get_note(base_url, create_note):
    note = create_note()
    resp = requests.get(f"{base_url}/api/notes/{note['id']}", timeout=5)
    assert resp.status_code == 200
    assert resp.json() == note


def test_get_unknown_note(base_url):
    assert requests.get(f"{base_url}/api/notes/424242", timeout=5).status_code == 404


def test_list_by_tag(base_url, create_note):
    tag = unique_tag()
    first = create_note(tags=[tag])
    create_note(tags=["other"])
    second = create_note(tags=["x", tag])
    resp = requests.get(f"{base_url}/api/notes", params={"tag": tag}, timeout=5)
    assert resp.status_code == 200
    assert [n["id"] for n in resp.json()] == [first["id"], second["id"]]


def test_patch_note(base_url, create_note):
    note = create_note()
    time.sleep(0.01)
    resp = requests.patch(f"{base_url}/api/notes/{note['id']}", json={"content": "milk"}, timeout=5)
    assert resp.status_code == 200
    body = resp.json()
    assert body["content"] == "milk"
    assert body["title"] == note["title"] and body["tags"] == note["tags"]
    assert body["created_at"] == note["created_at"]
    assert body["updated_at"] != note["updated_at"]


def test_patch_note_invalid(base_url, create_note):
    note = create_note()
    resp = requests.patch(f"{base_url}/api/notes/{note['id']}", json={"title": ""}, timeout=5)
    assert resp.status_code == 400
    assert requests.get(f"{base_url}/api/notes/{note['id']}", timeout=5).json()["title"] == note["title"]


def test_patch_unknown_note(base_url):
    resp = requests.patch(f"{base_url}/api/notes/424242", json={"content": "x"}, timeout=5)
    assert resp.status_code == 404


def test_delete_note(base_url, create_note):
    note = create_note()
    resp = requests.delete(f"{base_url}/api/notes/{note['id']}", timeout=5)
    assert resp.status_code == 204
    assert requests.get(f"{base_url}/api/notes/{note['id']}", timeout=5).status_code == 404


def test_tags_counts(base_url, create_note):
    tag = unique_tag()
    create_note(tags=[tag])
    create_note(tags=[tag, "misc"])
    resp = requests.get(f"{base_url}/api/tags", timeout=5)
    assert resp.status_code == 200
    tags = resp.json()
    assert {"tag": tag, "count": 2} in tags
    names = [t["tag"] for t in tags]
    assert names == sorted(names)
