package com.example.blog;

import com.example.blog.Models.Author;
import com.example.blog.Models.Category;
import com.example.blog.Models.Comment;
import com.example.blog.Models.Post;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/** In-memory store of posts, categories, comments and authors. */
@ApplicationScoped
public class BlogStore {

    private final Map<String, Post> posts = new LinkedHashMap<>();
    private final Map<String, Category> categories = new LinkedHashMap<>();
    private final Map<String, Comment> comments = new LinkedHashMap<>();
    private final Map<String, Author> authors = new LinkedHashMap<>();

    static String newId() {
        return UUID.randomUUID().toString();
    }

    static String now() {
        return Instant.now().toString();
    }

    private static List<String> cleanTags(List<String> tags) {
        if (tags == null) {
            return new ArrayList<>();
        }
        Set<String> seen = new LinkedHashSet<>();
        for (String t : tags) {
            if (t != null && !t.isBlank()) {
                seen.add(t.trim());
            }
        }
        return new ArrayList<>(seen);
    }

    // ---- posts ----

    public synchronized Post createPost(Models.PostInput in) {
        Post p = new Post();
        p.id = newId();
        p.title = in.title;
        p.content = in.content;
        p.authorId = in.authorId;
        p.categoryId = in.categoryId;
        p.tags = cleanTags(in.tags);
        p.createdAt = now();
        p.updatedAt = p.createdAt;
        posts.put(p.id, p);
        return p;
    }

    public synchronized Post getPost(String id) {
        return posts.get(id);
    }

    public synchronized Post updatePost(String id, Models.PostInput in) {
        Post p = posts.get(id);
        if (p == null) {
            return null;
        }
        if (in.title != null) {
            p.title = in.title;
        }
        if (in.content != null) {
            p.content = in.content;
        }
        if (in.categoryId != null) {
            p.categoryId = in.categoryId;
        }
        if (in.tags != null) {
            p.tags = cleanTags(in.tags);
        }
        p.updatedAt = now();
        return p;
    }

    public synchronized boolean deletePost(String id) {
        if (posts.remove(id) == null) {
            return false;
        }
        comments.values().removeIf(c -> id.equals(c.postId));
        return true;
    }

    public synchronized Models.PostPage listPosts(int page, int size) {
        List<Post> all = new ArrayList<>(posts.values());
        Models.PostPage out = new Models.PostPage();
        out.total = all.size();
        out.page = page;
        out.size = size;
        long from = (long) page * size;
        out.data = all.stream().skip(from).limit(size).map(Models.PostSummary::new).collect(Collectors.toList());
        return out;
    }

    public synchronized List<String> tags() {
        Set<String> tags = new LinkedHashSet<>();
        posts.values().forEach(p -> tags.addAll(p.tags));
        return new ArrayList<>(tags);
    }

    // ---- categories ----

    public synchronized Category createCategory(Models.CategoryInput in) {
        Category c = new Category();
        c.id = newId();
        c.name = in.name;
        c.description = in.description;
        categories.put(c.id, c);
        return c;
    }

    public synchronized List<Category> listCategories() {
        return new ArrayList<>(categories.values());
    }

    public synchronized Category getCategory(String id) {
        return categories.get(id);
    }

    public synchronized Category updateCategory(String id, Models.CategoryInput in) {
        Category c = categories.get(id);
        if (c == null) {
            return null;
        }
        if (in.name != null) {
            c.name = in.name;
        }
        if (in.description != null) {
            c.description = in.description;
        }
        return c;
    }

    public synchronized boolean deleteCategory(String id) {
        if (categories.remove(id) == null) {
            return false;
        }
        // posts of a removed category become uncategorized
        posts.values().stream().filter(p -> id.equals(p.categoryId)).forEach(p -> p.categoryId = null);
        return true;
    }

    // ---- comments ----

    public synchronized Comment addComment(Models.CommentInput in) {
        Comment c = new Comment();
        c.id = newId();
        c.postId = in.postId;
        c.authorName = in.authorName;
        c.content = in.content;
        c.createdAt = now();
        comments.put(c.id, c);
        return c;
    }

    public synchronized List<Comment> commentsOf(String postId) {
        return comments.values().stream().filter(c -> postId.equals(c.postId)).collect(Collectors.toList());
    }

    public synchronized boolean deleteComment(String id) {
        return comments.remove(id) != null;
    }

    // ---- authors ----

    public synchronized Author createAuthor(Models.AuthorInput in) {
        Author a = new Author();
        a.id = newId();
        a.name = in.name;
        a.email = in.email;
        a.bio = in.bio;
        authors.put(a.id, a);
        return a;
    }

    public synchronized Author getAuthor(String id) {
        return authors.get(id);
    }
}
