import math
from typing import Optional

from fastapi import APIRouter, Depends, HTTPException, Query, status
from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from app.core.auth import get_current_user, get_optional_user
from app.core.database import get_db
from app.models.category import Category
from app.models.comment import Comment
from app.models.post import Post, PostStatus, Tag
from app.models.user import User
from app.schemas import CommentIn, PostIn
from app.serializers import comment_out, post_detail, post_full, post_list_item

router = APIRouter(prefix="/posts", tags=["posts"])


def _tags(db: Session, names):
    result = []
    for name in names or []:
        tag = db.scalar(select(Tag).where(Tag.name == name))
        if tag is None:
            tag = Tag(name=name)
            db.add(tag)
            db.flush()
        result.append(tag)
    return result


def _require_category(db: Session, category_id: int):
    if db.get(Category, category_id) is None:
        raise HTTPException(status_code=404, detail="Category not found")


def _visible(post: Optional[Post], user: Optional[User]) -> bool:
    if post is None:
        return False
    if post.status == PostStatus.published.value:
        return True
    return user is not None and post.author_id == user.id


def _get_visible_post(db: Session, post_id: int, user: Optional[User]) -> Post:
    post = db.get(Post, post_id)
    if not _visible(post, user):
        raise HTTPException(status_code=404, detail="Post not found")
    return post


@router.post("", status_code=status.HTTP_201_CREATED)
@router.post("/", status_code=status.HTTP_201_CREATED, include_in_schema=False)
def create_post(body: PostIn, db: Session = Depends(get_db), user: User = Depends(get_current_user)):
    _require_category(db, body.category_id)
    post = Post(title=body.title, content=body.content, excerpt=body.excerpt, category_id=body.category_id,
                status=body.status.value, author_id=user.id)
    post.tags = _tags(db, body.tags)
    db.add(post)
    db.commit()
    db.refresh(post)
    return post_full(post)


@router.get("")
@router.get("/", include_in_schema=False)
def list_posts(
    page: int = Query(1, ge=1),
    limit: int = Query(10, ge=1, le=100),
    status_filter: Optional[PostStatus] = Query(None, alias="status"),
    category_id: Optional[int] = None,
    author_id: Optional[int] = None,
    search: Optional[str] = None,
    db: Session = Depends(get_db),
    user: Optional[User] = Depends(get_optional_user),
):
    query = select(Post)
    # Drafts are only visible to their author.
    if user is None:
        query = query.where(Post.status == PostStatus.published.value)
    else:
        query = query.where(or_(Post.status == PostStatus.published.value, Post.author_id == user.id))
    if status_filter is not None:
        query = query.where(Post.status == status_filter.value)
    if category_id is not None:
        query = query.where(Post.category_id == category_id)
    if author_id is not None:
        query = query.where(Post.author_id == author_id)
    if search:
        pattern = f"%{search}%"
        query = query.where(or_(Post.title.ilike(pattern), Post.content.ilike(pattern)))
    total = db.scalar(select(func.count()).select_from(query.subquery()))
    posts = db.scalars(query.order_by(Post.created_at.desc(), Post.id.desc())
                       .offset((page - 1) * limit).limit(limit)).all()
    return {
        "posts": [post_list_item(p) for p in posts],
        "pagination": {"page": page, "limit": limit, "total": total, "pages": math.ceil(total / limit) if total else 0},
    }


@router.get("/{post_id}")
def get_post(post_id: int, db: Session = Depends(get_db), user: Optional[User] = Depends(get_optional_user)):
    return post_detail(_get_visible_post(db, post_id, user))


@router.put("/{post_id}")
def update_post(post_id: int, body: PostIn, db: Session = Depends(get_db), user: User = Depends(get_current_user)):
    post = db.get(Post, post_id)
    if post is None:
        raise HTTPException(status_code=404, detail="Post not found")
    if post.author_id != user.id:
        raise HTTPException(status_code=403, detail="No permission to update this post")
    _require_category(db, body.category_id)
    post.title = body.title
    post.content = body.content
    post.excerpt = body.excerpt
    post.category_id = body.category_id
    post.status = body.status.value
    if body.tags is not None:
        post.tags = _tags(db, body.tags)
    db.commit()
    db.refresh(post)
    return post_full(post)


@router.delete("/{post_id}")
def delete_post(post_id: int, db: Session = Depends(get_db), user: User = Depends(get_current_user)):
    post = db.get(Post, post_id)
    if post is None:
        raise HTTPException(status_code=404, detail="Post not found")
    if post.author_id != user.id:
        raise HTTPException(status_code=403, detail="No permission to delete this post")
    db.delete(post)
    db.commit()
    return {"message": "Post deleted successfully"}


@router.post("/{post_id}/comments", status_code=status.HTTP_201_CREATED)
def create_comment(post_id: int, body: CommentIn, db: Session = Depends(get_db),
                   user: User = Depends(get_current_user)):
    post = _get_visible_post(db, post_id, user)
    if body.parent_id is not None:
        parent = db.get(Comment, body.parent_id)
        if parent is None or parent.post_id != post.id:
            raise HTTPException(status_code=404, detail="Parent comment not found")
    comment = Comment(content=body.content, post_id=post.id, author_id=user.id, parent_id=body.parent_id)
    db.add(comment)
    db.commit()
    db.refresh(comment)
    return comment_out(comment)


@router.get("/{post_id}/comments")
def list_comments(post_id: int, db: Session = Depends(get_db), user: Optional[User] = Depends(get_optional_user)):
    post = _get_visible_post(db, post_id, user)
    comments = db.scalars(select(Comment).where(Comment.post_id == post.id).order_by(Comment.id)).all()
    nodes = {}
    for c in comments:
        node = comment_out(c)
        node.pop("post_id")
        node["replies"] = []
        nodes[c.id] = node
    roots = []
    for c in comments:
        node = nodes[c.id]
        if c.parent_id is not None and c.parent_id in nodes:
            nodes[c.parent_id]["replies"].append(node)
        else:
            roots.append(node)
    return {"comments": roots}
