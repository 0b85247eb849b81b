from fastapi import APIRouter, Depends, HTTPException, status
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.core.auth import get_current_user
from app.core.database import get_db
from app.models.category import Category
from app.models.post import Post, PostStatus
from app.models.user import User
from app.schemas import CategoryIn
from app.serializers import iso

router = APIRouter(prefix="/categories", tags=["categories"])


@router.post("", status_code=status.HTTP_201_CREATED)
@router.post("/", status_code=status.HTTP_201_CREATED, include_in_schema=False)
def create_category(body: CategoryIn, db: Session = Depends(get_db), user: User = Depends(get_current_user)):
    if db.scalar(select(Category).where(Category.name == body.name)) is not None:
        raise HTTPException(status_code=400, detail="Category already exists")
    category = Category(name=body.name, description=body.description)
    db.add(category)
    db.commit()
    db.refresh(category)
    return {"id": category.id, "name": category.name, "description": category.description or "",
            "created_at": iso(category.created_at)}


@router.get("")
@router.get("/", include_in_schema=False)
def list_categories(db: Session = Depends(get_db)):
    counts = dict(db.execute(
        select(Post.category_id, func.count(Post.id))
        .where(Post.status == PostStatus.published.value)
        .group_by(Post.category_id)
    ).all())
    categories = db.scalars(select(Category).order_by(Category.id)).all()
    return {"categories": [
        {"id": c.id, "name": c.name, "description": c.description or "",
         "post_count": counts.get(c.id, 0), "created_at": iso(c.created_at)}
        for c in categories
    ]}
