import re
from typing import List, Optional

from pydantic import BaseModel, Field, field_validator

from app.models.post import PostStatus

_EMAIL_RE = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$")


class RegisterIn(BaseModel):
    username: str = Field(min_length=3, max_length=20)
    email: str
    password: str = Field(min_length=6, max_length=50)

    @field_validator("email")
    @classmethod
    def valid_email(cls, v: str) -> str:
        if not _EMAIL_RE.match(v):
            raise ValueError("invalid email format")
        return v


class LoginIn(BaseModel):
    username: str
    password: str


class PostIn(BaseModel):
    title: str = Field(min_length=1, max_length=200)
    content: str = Field(min_length=1, max_length=10000)
    excerpt: Optional[str] = Field(default=None, min_length=1, max_length=500)
    category_id: int
    tags: Optional[List[str]] = None
    status: PostStatus = PostStatus.draft

    @field_validator("tags")
    @classmethod
    def clean_tags(cls, v):
        if v is None:
            return v
        out = []
        for tag in v:
            tag = tag.strip()
            if not tag or len(tag) > 50:
                raise ValueError("tags must be non-empty strings of at most 50 characters")
            if tag not in out:
                out.append(tag)
        return out


class CategoryIn(BaseModel):
    name: str = Field(min_length=1, max_length=50)
    description: Optional[str] = Field(default=None, min_length=1, max_length=200)


class CommentIn(BaseModel):
    content: str = Field(min_length=1, max_length=1000)
    parent_id: Optional[int] = None
