package com.example.blog;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.List;
import java.util.Map;

/** REST endpoints of the blog CMS under /api. */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class BlogResources {

    @Inject
    BlogStore store;

    private static Response notFound(String what) {
        return Response.status(Response.Status.NOT_FOUND).entity(new Models.Error(what + " not found")).build();
    }

    private static Response badRequest(String message) {
        return Response.status(Response.Status.BAD_REQUEST).entity(new Models.Error(message)).build();
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    // ---- posts ----

    @POST
    @Path("/posts")
    public Response createPost(Models.PostInput in) {
        if (in == null || blank(in.title)) {
            return badRequest("title is required");
        }
        if (in.authorId != null && store.getAuthor(in.authorId) == null) {
            return badRequest("unknown authorId");
        }
        if (in.categoryId != null && store.getCategory(in.categoryId) == null) {
            return badRequest("unknown categoryId");
        }
        return Response.ok(store.createPost(in)).build();
    }

    @GET
    @Path("/posts/{id}")
    public Response getPost(@PathParam("id") String id) {
        Models.Post p = store.getPost(id);
        return p == null ? notFound("post") : Response.ok(p).build();
    }

    @PUT
    @Path("/posts/{id}")
    public Response updatePost(@PathParam("id") String id, Models.PostInput in) {
        if (in == null) {
            return badRequest("body is required");
        }
        if (store.getPost(id) == null) {
            return notFound("post");
        }
        if (in.title != null && in.title.isBlank()) {
            return badRequest("title must not be blank");
        }
        if (in.categoryId != null && store.getCategory(in.categoryId) == null) {
            return badRequest("unknown categoryId");
        }
        Models.Post p = store.updatePost(id, in);
        return p == null ? notFound("post") : Response.ok(p).build();
    }

    @DELETE
    @Path("/posts/{id}")
    public Response deletePost(@PathParam("id") String id) {
        return store.deletePost(id) ? Response.noContent().build() : notFound("post");
    }

    @GET
    @Path("/posts")
    public Response listPosts(@QueryParam("page") @DefaultValue("0") int page,
                              @QueryParam("size") @DefaultValue("10") int size) {
        if (page < 0 || size <= 0) {
            return badRequest("page must be >= 0 and size > 0");
        }
        return Response.ok(store.listPosts(page, size)).build();
    }

    @GET
    @Path("/posts/{id}/comments")
    public Response commentsOfPost(@PathParam("id") String id) {
        if (store.getPost(id) == null) {
            return notFound("post");
        }
        return Response.ok(store.commentsOf(id)).build();
    }

    // ---- categories ----

    @POST
    @Path("/categories")
    public Response createCategory(Models.CategoryInput in) {
        if (in == null || blank(in.name)) {
            return badRequest("name is required");
        }
        return Response.ok(store.createCategory(in)).build();
    }

    @GET
    @Path("/categories")
    public List<Models.Category> listCategories() {
        return store.listCategories();
    }

    @PUT
    @Path("/categories/{id}")
    public Response updateCategory(@PathParam("id") String id, Models.CategoryInput in) {
        if (in == null) {
            return badRequest("body is required");
        }
        if (in.name != null && in.name.isBlank()) {
            return badRequest("name must not be blank");
        }
        Models.Category c = store.updateCategory(id, in);
        return c == null ? notFound("category") : Response.ok(c).build();
    }

    @DELETE
    @Path("/categories/{id}")
    public Response deleteCategory(@PathParam("id") String id) {
        return store.deleteCategory(id) ? Response.noContent().build() : notFound("category");
    }

    // ---- comments ----

    @POST
    @Path("/comments")
    public Response addComment(Models.CommentInput in) {
        if (in == null || blank(in.postId) || blank(in.content)) {
            return badRequest("postId and content are required");
        }
        if (store.getPost(in.postId) == null) {
            return notFound("post");
        }
        return Response.ok(store.addComment(in)).build();
    }

    @DELETE
    @Path("/comments/{id}")
    public Response deleteComment(@PathParam("id") String id) {
        return store.deleteComment(id) ? Response.noContent().build() : notFound("comment");
    }

    // ---- authors ----

    @POST
    @Path("/authors")
    public Response createAuthor(Models.AuthorInput in) {
        if (in == null || blank(in.name)) {
            return badRequest("name is required");
        }
        return Response.ok(store.createAuthor(in)).build();
    }

    @GET
    @Path("/authors/{id}")
    public Response getAuthor(@PathParam("id") String id) {
        Models.Author a = store.getAuthor(id);
        return a == null ? notFound("author") : Response.ok(a).build();
    }

    // ---- tags ----

    @GET
    @Path("/tags")
    public List<String> tags() {
        return store.tags();
    }

    @GET
    @Path("/")
    public Map<String, String> index() {
        return Map.of("service", "quarkus-blog-cms");
    }
}
