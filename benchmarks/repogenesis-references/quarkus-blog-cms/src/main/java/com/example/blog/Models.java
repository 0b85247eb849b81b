package com.example.blog;

import java.util.ArrayList;
import java.util.List;

/** JSON shapes of the API (public fields are serialized by Jackson). */
public final class Models {
    private Models() {
    }

    public static class Post {
        public String id;
        public String title;
        public String content;
        public String authorId;
        public String categoryId;
        public List<String> tags = new ArrayList<>();
        public String createdAt;
        public String updatedAt;
    }

    /** Entry of the paginated post list. */
    public static class PostSummary {
        public String id;
        public String title;
        public String authorId;
        public String categoryId;
        public String createdAt;

        PostSummary(Post p) {
            id = p.id;
            title = p.title;
            authorId = p.authorId;
            categoryId = p.categoryId;
            createdAt = p.createdAt;
        }
    }

    public static class PostPage {
        public List<PostSummary> data;
        public int total;
        public int page;
        public int size;
    }

    public static class PostInput {
        public String title;
        public String content;
        public String authorId;
        public String categoryId;
        public List<String> tags;
    }

    public static class Category {
        public String id;
        public String name;
        public String description;
    }

    public static class CategoryInput {
        public String name;
        public String description;
    }

    public static class Comment {
        public String id;
        public String postId;
        public String authorName;
        public String content;
        public String createdAt;
    }

    public static class CommentInput {
        public String postId;
        public String authorName;
        public String content;
    }

    public static class Author {
        public String id;
        public String name;
        public String email;
        public String bio;
    }

    public static class AuthorInput {
        public String name;
        public String email;
        public String bio;
    }

    public static class Error {
        public String error;

        public Error(String error) {
            this.error = error;
        }
    }
}
