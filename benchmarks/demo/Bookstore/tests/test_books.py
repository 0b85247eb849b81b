import uuid

import pytest
import requests


def test_health(api):
    resp = requests.get(f"{api}/health", timeout=5)
    assert resp.status_code == 200
    assert resp.json() == {"status": "ok"}


def test_create_book(api):
    payload = {"title": "Emma", "author": "Jane Austen", "price": 5.5, "stock": 2}
    resp = requests.post(f"{api}/books", json=payload, timeout=5)
    assert resp.status_code == 201
    body = resp.json()
    assert isinstance(body["id"], int)
    assert {k: body[k] for k in payload} == payload


def test_create_book_default_stock(api):
    resp = requests.post(f"{api}/books", json={"title": "Ulysses", "author": "James Joyce", "price": 12}, timeout=5)
    assert resp.status_code == 201
    assert resp.json()["stock"] == 0


@pytest.mark.parametrize("payload", [
    {"author": "A", "price": 1},
    {"title": "", "author": "A", "price": 1},
    {"title": "T", "author": "A", "price": 0},
    {"title": "T", "author": "A", "price": "cheap"},
    {"title": "T", "author": "A", "price": 1, "stock": -1},
])
def test_create_book_invalid(api, payload):
    resp = requests.post(f"{api}/books", json=payload, timeout=5)
    assert resp.status_code == 422
    assert "detail" in resp.json()


def test_get_book(api, new_book):
    book = new_book()
    resp = requests.get(f"{api}/books/{book['id']}", timeout=5)
    assert resp.status_code == 200
    assert resp.json() == book


def test_get_unknown_book(api):
    resp = requests.get(f"{api}/books/987654", timeout=5)
    assert resp.status_code == 404
    assert resp.json() == {"detail": "Book not found"}


def test_list_filter_by_author(api, new_book):
    author = f"Author {uuid.uuid4().hex[:8]}"
    mine = new_book(author=author)
    other = new_book()
    resp = requests.get(f"{api}/books", params={"author": author.upper()}, timeout=5)
    assert resp.status_code == 200
    ids = [b["id"] for b in resp.json()]
    assert ids == [mine["id"]]
    assert other["id"] not in ids


def test_update_book(api, new_book):
    book = new_book()
    update = {"title": "Dune Messiah", "author": "Frank Herbert", "price": 11.0, "stock": 7}
    resp = requests.put(f"{api}/books/{book['id']}", json=update, timeout=5)
    assert resp.status_code == 200
    assert resp.json() == {"id": book["id"], **update}


def test_update_unknown_book(api):
    resp = requests.put(f"{api}/books/987654", json={"title": "T", "author": "A", "price": 1}, timeout=5)
    assert resp.status_code == 404


def test_delete_book(api, new_book):
    book = new_book()
    resp = requests.delete(f"{api}/books/{book['id']}", timeout=5)
    assert resp.status_code == 204
    assert requests.get(f"{api}/books/{book['id']}", timeout=5).status_code == 404


def test_purchase(api, new_book):
    book = new_book(price=4.25, stock=5)
    resp = requests.post(f"{api}/books/{book['id']}/purchase", json={"quantity": 2}, timeout=5)
    assert resp.status_code == 200
    assert resp.json() == {"book_id": book["id"], "quantity": 2, "total": 8.5, "remaining_stock": 3}
    assert requests.get(f"{api}/books/{book['id']}", timeout=5).json()["stock"] == 3


def test_purchase_insufficient_stock(api, new_book):
    book = new_book(stock=1)
    resp = requests.post(f"{api}/books/{book['id']}/purchase", json={"quantity": 2}, timeout=5)
    assert resp.status_code == 409
    assert requests.get(f"{api}/books/{book['id']}", timeout=5).json()["stock"] == 1


@pytest.mark.parametrize("quantity", [0, -3])
def test_purchase_invalid_quantity(api, new_book, quantity):
    book = new_book()
    resp = requests.post(f"{api}/books/{book['id']}/purchase", json={"quantity": quantity}, timeout=5)
    assert resp.status_code == 422
