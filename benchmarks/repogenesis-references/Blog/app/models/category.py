from sqlalchemy import Column, DateTime, Integer, String

from app.core.database import Base
from app.models.user import utcnow


class Category(Base):
    __tablename__ = "categories"

    id = Column(Integer, primary_key=True, index=True)
    name = Column(String(50), unique=True, nullable=False)
    description = Column(String(200), nullable=True)
    created_at = Column(DateTime, default=utcnow, nullable=False)
