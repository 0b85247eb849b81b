from app.models.user import User
from app.models.category import Category
from app.models.post import Post, PostStatus, Tag, post_tags
from app.models.comment import Comment

__all__ = ["User", "Category", "Post", "PostStatus", "Tag", "post_tags", "Comment"]
