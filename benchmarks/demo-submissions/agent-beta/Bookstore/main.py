import os

import uvicorn
from fastapi import FastAPI, HTTPException
from pydantic import BaseModel

app = FastAPI()

books = []


class Book(BaseModel):
    title: str
    author: str
    price: float
    stock: int = 0


class Purchase(BaseModel):
    quantity: int


def get_book_or_404(book_id):
    for book in books:
        if book["id"] == book_id:
            return book
    raise HTTPException(status_code=404, detail="Book not found")


@app.get("/health")
def health():
    return {"status": "ok"}


@app.post("/books", status_code=201)
def create_book(book: Book):
    record = {"id": len(books) + 1, **book.dict()}
    books.append(record)
    return record


@app.get("/books")
def list_books(author: str = None):
    if author:
        return [b for b in books if b["author"] == author]
    return books


@app.get("/books/{book_id}")
def get_book(book_id: int):
    return get_book_or_404(book_id)


@app.put("/books/{book_id}")
def update_book(book_id: int, book: Book):
    record = get_book_or_404(book_id)
    record.update(book.dict())
    return record


@app.delete("/books/{book_id}", status_code=204)
def delete_book(book_id: int):
    books.remove(get_book_or_404(book_id))


@app.post("/books/{book_id}/purchase")
def purchase(book_id: int, purchase: Purchase):
    record = get_book_or_404(book_id)
    if purchase.quantity > record["stock"]:
        raise HTTPException(status_code=409, detail="Insufficient stock")
    record["stock"] -= purchase.quantity
    return {"book_id": book_id, "quantity": purchase.quantity,
            "total": round(record["price"] * purchase.quantity, 2), "remaining_stock": record["stock"]}


if __name__ == "__main__":
    uvicorn.run(app, host="0.0.0.0", port=int(os.environ.get("PORT", 8081)))
