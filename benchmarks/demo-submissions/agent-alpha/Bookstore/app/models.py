from pydantic import BaseModel, conint, confloat, constr


class BookCreate(BaseModel):
    title: constr(min_length=1, max_length=200)
    author: constr(min_length=1, max_length=100)
    price: confloat(gt=0)
    stock: conint(ge=0) = 0


class Book(BookCreate):
    id: int


class PurchaseRequest(BaseModel):
    quantity: conint(ge=1)


class PurchaseResult(BaseModel):
    book_id: int
    quantity: int
    total: float
    remaining_stock: int
