package com.example.javalintaskmanager;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** HTTP layer: routes, authentication and JSON mapping. */
public class TaskManagerApi {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String USER_ATTR = "userId";

    private final Store store;

    public TaskManagerApi(Store store) {
        this.store = store;
    }

    public Javalin create() {
        Javalin app = Javalin.create(config -> config.showJavalinBanner = false);

        app.exception(ApiException.class, (e, ctx) -> ctx.status(e.status()).json(Map.of("error", e.getMessage())));
        app.exception(Exception.class, (e, ctx) -> ctx.status(500).json(Map.of("error", "Internal server error")));
        app.error(404, ctx -> {
            if (ctx.result() == null || ctx.result().isEmpty()) {
                ctx.json(Map.of("error", "Not found"));
            }
        });

        app.get("/", ctx -> ctx.json(Map.of("service", "javalin-task-manager", "status", "ok")));

        // authentication for every protected route
        app.before("/projects*", this::requireAuth);
        app.before("/tasks*", this::requireAuth);
        app.before("/users/{id}/tasks", this::requireAuth);

        app.post("/users", this::register);
        app.post("/users/login", this::login);
        app.get("/users/{id}/tasks", ctx -> ctx.json(tasks(store.tasksOfAssignee(intParam(ctx, "id")))));

        app.get("/projects", ctx -> {
            List<Object> out = new ArrayList<>();
            for (Store.Project p : store.projects()) {
                out.add(project(p));
            }
            ctx.json(out);
        });
        app.post("/projects", ctx -> {
            Map<String, Object> body = body(ctx);
            String name = requiredString(body, "name");
            String description = optionalString(body, "description");
            ctx.status(201).json(project(store.createProject(name, description == null ? "" : description, userId(ctx))));
        });
        app.get("/projects/{id}", ctx -> ctx.json(project(store.project(intParam(ctx, "id")))));
        app.put("/projects/{id}", ctx -> {
            Map<String, Object> body = body(ctx);
            String name = optionalString(body, "name");
            if (name != null && name.isBlank()) {
                throw new ApiException(400, "name must not be empty");
            }
            ctx.json(project(store.updateProject(intParam(ctx, "id"), name, optionalString(body, "description"),
                    userId(ctx))));
        });
        app.delete("/projects/{id}", ctx -> {
            store.deleteProject(intParam(ctx, "id"), userId(ctx));
            ctx.status(204);
        });

        app.get("/projects/{id}/tasks", ctx -> ctx.json(tasks(store.tasksOfProject(intParam(ctx, "id")))));
        app.post("/projects/{id}/tasks", ctx -> {
            int projectId = intParam(ctx, "id");
            Map<String, Object> body = body(ctx);
            String title = requiredString(body, "title");
            String description = optionalString(body, "description");
            Integer assigneeId = optionalInt(body, "assigneeId");
            ctx.status(201).json(task(store.createTask(projectId, title, description == null ? "" : description,
                    assigneeId)));
        });

        app.get("/tasks/{id}", ctx -> ctx.json(task(store.task(intParam(ctx, "id")))));
        app.put("/tasks/{id}", ctx -> {
            int id = intParam(ctx, "id");
            Map<String, Object> body = body(ctx);
            String title = optionalString(body, "title");
            if (title != null && title.isBlank()) {
                throw new ApiException(400, "title must not be empty");
            }
            String status = optionalString(body, "status");
            if (status != null && status.isBlank()) {
                throw new ApiException(400, "status must not be empty");
            }
            ctx.json(task(store.updateTask(id, title, optionalString(body, "description"), status,
                    optionalInt(body, "assigneeId"), body.containsKey("assigneeId"))));
        });
        app.delete("/tasks/{id}", ctx -> {
            store.deleteTask(intParam(ctx, "id"));
            ctx.status(204);
        });

        app.post("/tasks/{id}/comments", ctx -> {
            int taskId = intParam(ctx, "id");
            Map<String, Object> body = body(ctx);
            String content = requiredString(body, "content");
            ctx.status(201).json(comment(store.addComment(taskId, content, userId(ctx))));
        });
        app.get("/tasks/{id}/comments", ctx -> {
            List<Object> out = new ArrayList<>();
            for (Store.Comment c : store.comments(intParam(ctx, "id"))) {
                out.add(comment(c));
            }
            ctx.json(out);
        });

        return app;
    }

    // ---------------------------------------------------------------- handlers

    private void register(Context ctx) {
        Map<String, Object> body = body(ctx);
        String username = requiredString(body, "username");
        String email = requiredString(body, "email");
        String password = requiredString(body, "password");
        if (!email.matches("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$")) {
            throw new ApiException(400, "email is not a valid email address");
        }
        Store.User u = store.register(username.trim(), email.trim(), password);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", u.id);
        out.put("username", u.username);
        out.put("email", u.email);
        ctx.status(201).json(out);
    }

    private void login(Context ctx) {
        Map<String, Object> body = body(ctx);
        String email = requiredString(body, "email");
        String password = requiredString(body, "password");
        ctx.json(Map.of("token", store.login(email.trim(), password)));
    }

    private void requireAuth(Context ctx) {
        if (ctx.method() == HandlerType.OPTIONS) {
            return;
        }
        String header = ctx.header("Authorization");
        String token = null;
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            token = header.substring(7).trim();
        }
        Integer userId = store.userForToken(token);
        if (userId == null || !store.userExists(userId)) {
            throw new ApiException(401, "Missing or invalid token");
        }
        ctx.attribute(USER_ATTR, userId);
    }

    private static int userId(Context ctx) {
        Integer id = ctx.attribute(USER_ATTR);
        if (id == null) {
            throw new ApiException(401, "Missing or invalid token");
        }
        return id;
    }

    // ---------------------------------------------------------------- JSON views

    private static Map<String, Object> project(Store.Project p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", p.id);
        m.put("name", p.name);
        m.put("description", p.description);
        m.put("ownerId", p.ownerId);
        return m;
    }

    private static Map<String, Object> task(Store.Task t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", t.id);
        m.put("title", t.title);
        m.put("description", t.description);
        m.put("status", t.status);
        m.put("projectId", t.projectId);
        m.put("assigneeId", t.assigneeId);
        return m;
    }

    private static List<Object> tasks(List<Store.Task> list) {
        List<Object> out = new ArrayList<>();
        for (Store.Task t : list) {
            out.add(task(t));
        }
        return out;
    }

    private static Map<String, Object> comment(Store.Comment c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", c.id);
        m.put("content", c.content);
        m.put("taskId", c.taskId);
        m.put("authorId", c.authorId);
        m.put("createdAt", c.createdAt);
        return m;
    }

    // ---------------------------------------------------------------- input helpers

    @SuppressWarnings("unchecked")
    private static Map<String, Object> body(Context ctx) {
        String raw = ctx.body();
        if (raw == null || raw.isBlank()) {
            throw new ApiException(400, "Request body must be a JSON object");
        }
        try {
            Object parsed = MAPPER.readValue(raw, Object.class);
            if (!(parsed instanceof Map)) {
                throw new ApiException(400, "Request body must be a JSON object");
            }
            return (Map<String, Object>) parsed;
        } catch (ApiException e) {
            throw e;
        } catch (Exception e) {
            throw new ApiException(400, "Malformed JSON body");
        }
    }

    private static String requiredString(Map<String, Object> body, String key) {
        String s = optionalString(body, key);
        if (s == null || s.isBlank()) {
            throw new ApiException(400, key + " is required");
        }
        return s;
    }

    private static String optionalString(Map<String, Object> body, String key) {
        Object v = body.get(key);
        if (v == null) {
            return null;
        }
        if (!(v instanceof String)) {
            throw new ApiException(400, key + " must be a string");
        }
        return (String) v;
    }

    private static Integer optionalInt(Map<String, Object> body, String key) {
        Object v = body.get(key);
        if (v == null) {
            return null;
        }
        if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) {
            return n.intValue();
        }
        throw new ApiException(400, key + " must be an integer");
    }

    private static int intParam(Context ctx, String name) {
        try {
            return Integer.parseInt(ctx.pathParam(name));
        } catch (NumberFormatException e) {
            throw new ApiException(404, "Not found");
        }
    }
}
