from typing import Optional

from fastapi import FastAPI, HTTPException, Response
from pydantic import BaseModel, Field

app = FastAPI(title="Bookstore")
books: dict[int, dict] = {}
counter = {"next": 1}


class BookIn(BaseModel):
    title: str = Field(min_length=1, max_length=200)
    author: str = Field(min_length=1, max_length=100)
    price: float = Field(gt=0)
    stock: int = Field(default=0, ge=0)


class PurchaseIn(BaseModel):
    quantity: int = Field(ge=1)


def find(book_id: int) -> dict:
    if book_id not in books:
        raise HTTPException(status_code=404, detail="Book not found")
    return books[book_id]


@app.get("/health")
def health():
    return {"status": "ok"}


@app.post("/books", status_code=201)
def create_book(book: BookIn):
    book_id = counter["next"]
    counter["next"] += 1
    books[book_id] = {"id": book_id, **book.model_dump()}
    return books[book_id]


@app.get("/books")
def list_books(author: Optional[str] = None):
    items = list(books.values())
    if author is not None:
        items = [b for b in items if b["author"].lower() == author.lower()]
    return items


@app.get("/books/{book_id}")
def get_book(book_id: int):
    return find(book_id)


@app.put("/books/{book_id}")
def update_book(book_id: int, book: BookIn):
    find(book_id)
    books[book_id] = {"id": book_id, **book.model_dump()}
    return books[book_id]


@app.delete("/books/{book_id}", status_code=204)
def delete_book(book_id: int):
    find(book_id)
    del books[book_id]
    return Response(status_code=204)


@app.post("/books/{book_id}/purchase")
def purchase(book_id: int, order: PurchaseIn):
    book = find(book_id)
    if order.quantity > book["stock"]:
        raise HTTPException(status_code=409, detail="Insufficient stock")
    book["stock"] -= order.quantity
    return {"book_id": book_id, "quantity": order.quantity,
            "total": round(book["price"] * order.quantity, 2),
            "remaining_stock": book["stock"]}
