"""Users microservice: FastAPI + SQLite."""
import os
import sqlite3
import threading
from typing import List

from fastapi import FastAPI, HTTPException
from pydantic import BaseModel

DB_PATH = os.environ.get(
    "USERS_DB_PATH", os.path.join(os.path.dirname(os.path.abspath(__file__)), "users.db")
)


class UserCreate(BaseModel):
    name: str
    email: str
    password: str


class UserUpdate(BaseModel):
    name: str
    email: str


class User(BaseModel):
    id: int
    name: str
    email: str
    password: str


_lock = threading.Lock()
_conn = sqlite3.connect(DB_PATH, check_same_thread=False)
_conn.row_factory = sqlite3.Row
_conn.execute(
    "CREATE TABLE IF NOT EXISTS users ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " name TEXT NOT NULL,"
    " email TEXT NOT NULL,"
    " password TEXT NOT NULL)"
)
_conn.commit()

app = FastAPI(title="Users")


def _row_to_user(row) -> User:
    return User(id=row["id"], name=row["name"], email=row["email"], password=row["password"])


def _not_found():
    raise HTTPException(status_code=404, detail="User not found")


@app.get("/users/", response_model=List[User])
def list_users():
    with _lock:
        rows = _conn.execute("SELECT * FROM users ORDER BY id").fetchall()
    return [_row_to_user(r) for r in rows]


@app.get("/users/{user_id}", response_model=User)
def get_user(user_id: int):
    with _lock:
        row = _conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
    if row is None:
        _not_found()
    return _row_to_user(row)


@app.post("/users/", response_model=User)
def create_user(user: UserCreate):
    with _lock:
        cur = _conn.execute(
            "INSERT INTO users (name, email, password) VALUES (?, ?, ?)",
            (user.name, user.email, user.password),
        )
        _conn.commit()
        new_id = cur.lastrowid
    return User(id=new_id, name=user.name, email=user.email, password=user.password)


@app.put("/users/{user_id}")
def update_user(user_id: int, user: UserUpdate):
    with _lock:
        cur = _conn.execute(
            "UPDATE users SET name = ?, email = ? WHERE id = ?", (user.name, user.email, user_id)
        )
        _conn.commit()
        changed = cur.rowcount
    if not changed:
        _not_found()
    return {"message": "User updated successfully"}


@app.delete("/users/{user_id}")
def delete_user(user_id: int):
    with _lock:
        cur = _conn.execute("DELETE FROM users WHERE id = ?", (user_id,))
        _conn.commit()
        changed = cur.rowcount
    if not changed:
        _not_found()
    return {"message": "User deleted successfully"}
