package com.example.oj;

import com.example.oj.JudgeStore.Contest;
import com.example.oj.JudgeStore.Difficulty;
import com.example.oj.JudgeStore.Language;
import com.example.oj.JudgeStore.Problem;
import com.example.oj.JudgeStore.Role;
import com.example.oj.JudgeStore.Submission;
import com.example.oj.JudgeStore.User;
import io.javalin.Javalin;
import io.javalin.http.Context;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** HTTP layer of the Online Judge: routes under /api, bearer-token authentication, JSON views. */
public class JudgeApi {

    private final JudgeStore store;

    public JudgeApi(JudgeStore store) {
        this.store = store;
    }

    public Javalin create() {
        Javalin app = Javalin.create(config -> config.showJavalinBanner = false);

        app.exception(ApiException.class, (e, ctx) -> ctx.status(e.status()).json(Map.of("error", e.getMessage())));
        app.exception(Exception.class, (e, ctx) -> ctx.status(500).json(Map.of("error", "Internal server error")));

        app.get("/", ctx -> ctx.json(Map.of("service", "javalin-online-judge", "status", "ok")));

        // authentication
        app.post("/api/auth/register", this::register);
        app.post("/api/auth/login", ctx -> {
            Map<String, Object> body = Json.body(ctx);
            String username = Json.string(body, "username", true);
            String password = Json.string(body, "password", true);
            ctx.json(Map.of("token", store.login(username.trim(), password)));
        });

        // users
        app.get("/api/users/{id}", ctx -> {
            requireUser(ctx);
            ctx.json(user(store.user(ctx.pathParam("id"))));
        });
        app.patch("/api/users/{id}", ctx -> {
            User me = requireUser(ctx);
            String id = ctx.pathParam("id");
            store.user(id);
            if (!me.id.equals(id) && me.role != Role.ADMIN) {
                throw new ApiException(403, "You may only update your own profile");
            }
            Map<String, Object> body = Json.body(ctx);
            String email = Json.string(body, "email", false);
            if (email != null) {
                email = validEmail(email);
            }
            ctx.json(user(store.updateEmail(id, email)));
        });

        // problems
        app.post("/api/problems", ctx -> {
            requireAdmin(ctx);
            ctx.status(201).json(problem(saveProblem(null, Json.body(ctx))));
        });
        app.get("/api/problems", ctx -> {
            List<Object> out = new ArrayList<>();
            for (Problem p : store.problems()) {
                out.add(problem(p));
            }
            ctx.json(out);
        });
        app.get("/api/problems/{id}", ctx -> ctx.json(problem(store.problem(ctx.pathParam("id")))));
        app.put("/api/problems/{id}", ctx -> {
            requireAdmin(ctx);
            String id = ctx.pathParam("id");
            store.problem(id);
            ctx.json(problem(saveProblem(id, Json.body(ctx))));
        });
        app.delete("/api/problems/{id}", ctx -> {
            requireAdmin(ctx);
            store.deleteProblem(ctx.pathParam("id"));
            ctx.status(204);
        });

        // submissions
        app.post("/api/submissions", ctx -> {
            User me = requireUser(ctx);
            Map<String, Object> body = Json.body(ctx);
            String problemId = Json.string(body, "problemId", true);
            String code = Json.string(body, "code", true);
            Language language = Json.enumValue(body, "language", Language.class, true);
            ctx.status(201).json(submission(store.submit(me.id, problemId, code, language)));
        });
        app.get("/api/submissions", ctx -> {
            User me = requireUser(ctx);
            String userId = ctx.queryParam("userId");
            if (me.role != Role.ADMIN) {
                if (userId != null && !userId.equals(me.id)) {
                    throw new ApiException(403, "You may only list your own submissions");
                }
                userId = me.id;
            }
            List<Object> out = new ArrayList<>();
            for (Submission s : store.submissions(userId, ctx.queryParam("problemId"))) {
                out.add(submission(s));
            }
            ctx.json(out);
        });
        app.get("/api/submissions/{id}", ctx -> {
            User me = requireUser(ctx);
            Submission s = store.submission(ctx.pathParam("id"));
            if (me.role != Role.ADMIN && !s.userId.equals(me.id)) {
                throw new ApiException(403, "You may only view your own submissions");
            }
            ctx.json(submission(s));
        });

        // contests
        app.post("/api/contests", ctx -> {
            requireAdmin(ctx);
            Map<String, Object> body = Json.body(ctx);
            String title = Json.string(body, "title", true);
            long start = Json.number(body, "startTime", true);
            long end = Json.number(body, "endTime", true);
            if (end <= start) {
                throw new ApiException(400, "endTime must be after startTime");
            }
            List<String> problemIds = Json.stringList(body, "problemIds", false);
            ctx.status(201).json(contest(store.createContest(title, start, end,
                    problemIds == null ? List.of() : problemIds)));
        });
        app.get("/api/contests", ctx -> {
            List<Object> out = new ArrayList<>();
            for (Contest c : store.contests()) {
                out.add(contest(c));
            }
            ctx.json(out);
        });
        app.get("/api/contests/{id}", ctx -> ctx.json(contest(store.contest(ctx.pathParam("id")))));
        app.post("/api/contests/{id}/join", ctx -> {
            User me = requireUser(ctx);
            String id = ctx.pathParam("id");
            store.join(id, me.id);
            ctx.json(Map.of("message", "Joined contest", "contestId", id, "userId", me.id));
        });
        app.get("/api/contests/{id}/standings", ctx -> ctx.json(store.standings(ctx.pathParam("id"))));

        // admin
        app.post("/api/admin/users/{id}/ban", ctx -> {
            requireAdmin(ctx);
            User u = store.ban(ctx.pathParam("id"));
            Map<String, Object> out = user(u);
            out.put("banned", true);
            ctx.json(out);
        });

        return app;
    }

    // ---------------------------------------------------------------- handlers & checks

    private void register(Context ctx) {
        Map<String, Object> body = Json.body(ctx);
        String username = Json.string(body, "username", true).trim();
        String email = validEmail(Json.string(body, "email", true));
        String password = Json.string(body, "password", true);
        if (password.length() < 6) {
            throw new ApiException(400, "password must be at least 6 characters");
        }
        ctx.status(201).json(user(store.register(username, email, password)));
    }

    private static String validEmail(String email) {
        String e = email.trim();
        if (!e.matches("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$")) {
            throw new ApiException(400, "email is not a valid email address");
        }
        return e;
    }

    private Problem saveProblem(String id, Map<String, Object> body) {
        String title = Json.string(body, "title", true);
        String description = Json.string(body, "description", false);
        Difficulty difficulty = Json.enumValue(body, "difficulty", Difficulty.class, true);
        long timeLimit = Json.number(body, "timeLimit", true);
        long memoryLimit = Json.number(body, "memoryLimit", true);
        if (timeLimit <= 0 || memoryLimit <= 0) {
            throw new ApiException(400, "timeLimit and memoryLimit must be positive");
        }
        return store.saveProblem(id, title, description == null ? "" : description, difficulty, timeLimit,
                memoryLimit);
    }

    private User requireUser(Context ctx) {
        String header = ctx.header("Authorization");
        String token = null;
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            token = header.substring(7).trim();
        }
        User u = store.userForToken(token);
        if (u == null) {
            throw new ApiException(401, "Missing or invalid token");
        }
        if (u.banned) {
            throw new ApiException(403, "User is banned");
        }
        return u;
    }

    private User requireAdmin(Context ctx) {
        User u = requireUser(ctx);
        if (u.role != Role.ADMIN) {
            throw new ApiException(403, "Admin only");
        }
        return u;
    }

    // ---------------------------------------------------------------- JSON views

    private static Map<String, Object> user(User u) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", u.id);
        m.put("username", u.username);
        m.put("email", u.email);
        m.put("role", u.role.name());
        return m;
    }

    private static Map<String, Object> problem(Problem p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", p.id);
        m.put("title", p.title);
        m.put("description", p.description);
        m.put("difficulty", p.difficulty.name());
        m.put("timeLimit", p.timeLimit);
        m.put("memoryLimit", p.memoryLimit);
        return m;
    }

    private static Map<String, Object> submission(Submission s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", s.id);
        m.put("userId", s.userId);
        m.put("problemId", s.problemId);
        m.put("code", s.code);
        m.put("language", s.language.name());
        m.put("status", s.status.name());
        m.put("timestamp", s.timestamp);
        return m;
    }

    private static Map<String, Object> contest(Contest c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", c.id);
        m.put("title", c.title);
        m.put("startTime", c.startTime);
        m.put("endTime", c.endTime);
        m.put("problemIds", new ArrayList<>(c.problemIds));
        return m;
    }
}
