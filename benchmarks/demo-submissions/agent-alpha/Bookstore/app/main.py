from typing import List, Optional

from fastapi import FastAPI, HTTPException, status

from .models import Book, BookCreate, PurchaseRequest, PurchaseResult

app = FastAPI(title="Bookstore API", version="1.0.0")

_db: dict[int, Book] = {}
_last_id = 0


def _lookup(book_id: int) -> Book:
    book = _db.get(book_id)
    if book is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail="Book not found")
    return book


@app.get("/health")
async def health():
    return {"status": "ok"}


@app.post("/books", response_model=Book)
async def add_book(payload: BookCreate):
    global _last_id
    _last_id += 1
    book = Book(id=_last_id, **payload.model_dump())
    _db[book.id] = book
    return book


@app.get("/books", response_model=List[Book])
async def all_books(author: Optional[str] = None):
    books = list(_db.values())
    if author:
        books = [b for b in books if b.author.casefold() == author.casefold()]
    return books


@app.get("/books/{book_id}", response_model=Book)
async def read_book(book_id: int):
    return _lookup(book_id)


@app.put("/books/{book_id}", response_model=Book)
async def replace_book(book_id: int, payload: BookCreate):
    _lookup(book_id)
    _db[book_id] = Book(id=book_id, **payload.model_dump())
    return _db[book_id]


@app.delete("/books/{book_id}", status_code=status.HTTP_204_NO_CONTENT)
async def remove_book(book_id: int):
    _lookup(book_id)
    _db.pop(book_id)


@app.post("/books/{book_id}/purchase", response_model=PurchaseResult)
async def buy(book_id: int, req: PurchaseRequest):
    book = _lookup(book_id)
    if req.quantity > book.stock:
        raise HTTPException(status.HTTP_409_CONFLICT, detail="Insufficient stock")
    book.stock -= req.quantity
    return PurchaseResult(book_id=book_id, quantity=req.quantity,
                          total=round(book.price * req.quantity, 2), remaining_stock=book.stock)
