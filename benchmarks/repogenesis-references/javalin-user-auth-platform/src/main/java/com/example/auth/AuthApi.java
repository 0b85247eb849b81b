package com.example.auth;

import com.example.auth.UserService.User;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.Javalin;
import io.javalin.http.Context;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/** HTTP layer: routes under /api/users, validation, bearer-token session handling. */
public class AuthApi {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Pattern USERNAME = Pattern.compile("^[A-Za-z0-9]{3,20}$");
    private static final Pattern EMAIL = Pattern.compile("^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}$");
    private static final int MIN_PASSWORD = 6;

    private final UserService users;

    public AuthApi(UserService users) {
        this.users = users;
    }

    public Javalin create() {
        Javalin app = Javalin.create(config -> config.showJavalinBanner = false);

        app.exception(ApiException.class, (e, ctx) -> ctx.status(e.status()).json(e.body()));
        app.exception(Exception.class, (e, ctx) ->
                ctx.status(500).json(new ApiException(500, "Internal server error").body()));
        app.error(404, ctx -> {
            if (ctx.result() == null || ctx.result().isEmpty()) {
                ctx.json(new ApiException(404, "Not found").body());
            }
        });

        app.get("/", ctx -> ctx.json(ok("Javalin User Authentication Platform")));

        app.post("/api/users/register", this::register);
        app.post("/api/users/login", this::login);
        app.get("/api/users/profile", this::getProfile);
        app.put("/api/users/profile", this::updateProfile);
        app.post("/api/users/change-password", this::changePassword);
        app.post("/api/users/logout", this::logout);
        app.get("/api/users/validate-session", this::validateSession);
        app.delete("/api/users/{userId}", this::deleteUser);
        return app;
    }

    // ---------------------------------------------------------------- handlers

    private void register(Context ctx) {
        Map<String, Object> body = body(ctx);
        String username = string(body, "username");
        String email = string(body, "email");
        String password = string(body, "password");
        if (username == null || username.isBlank()) {
            throw ApiException.badRequest("Username is required");
        }
        if (!USERNAME.matcher(username).matches()) {
            throw ApiException.badRequest("Username must be 3-20 alphanumeric characters");
        }
        if (email == null || email.isBlank()) {
            throw ApiException.badRequest("Email is required");
        }
        if (!EMAIL.matcher(email.trim()).matches()) {
            throw ApiException.badRequest("Invalid email format");
        }
        if (password == null || password.isEmpty()) {
            throw ApiException.badRequest("Password is required");
        }
        if (password.length() < MIN_PASSWORD) {
            throw ApiException.badRequest("Password must be at least " + MIN_PASSWORD + " characters");
        }
        User u = users.register(username, email.trim(), password);
        Map<String, Object> out = ok("User registered successfully");
        out.put("userId", u.userId);
        ctx.status(201).json(out);
    }

    private void login(Context ctx) {
        Map<String, Object> body = body(ctx);
        String username = string(body, "username");
        String password = string(body, "password");
        if (username == null || username.isBlank() || password == null || password.isEmpty()) {
            throw ApiException.badRequest("Username and password are required");
        }
        Map.Entry<String, User> session = users.login(username.trim(), password);
        Map<String, Object> out = ok("Login successful");
        out.put("sessionToken", session.getKey());
        out.put("userId", session.getValue().userId);
        ctx.json(out);
    }

    private void getProfile(Context ctx) {
        User u = requireUser(ctx);
        Map<String, Object> user = new LinkedHashMap<>();
        user.put("userId", u.userId);
        user.put("username", u.username);
        user.put("email", u.email);
        user.put("createdAt", u.createdAt.toString());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("success", true);
        out.put("user", user);
        ctx.json(out);
    }

    private void updateProfile(Context ctx) {
        User u = requireUser(ctx);
        Map<String, Object> body = body(ctx);
        if (!body.containsKey("email")) {
            throw ApiException.badRequest("No updatable fields provided (email)");
        }
        String email = string(body, "email");
        if (email == null || !EMAIL.matcher(email.trim()).matches()) {
            throw ApiException.badRequest("Invalid email format");
        }
        users.updateEmail(u, email.trim());
        ctx.json(ok("Profile updated successfully"));
    }

    private void changePassword(Context ctx) {
        User u = requireUser(ctx);
        Map<String, Object> body = body(ctx);
        String current = string(body, "currentPassword");
        String next = string(body, "newPassword");
        if (current == null || current.isEmpty()) {
            throw ApiException.badRequest("Current password is required");
        }
        if (next == null || next.isEmpty()) {
            throw ApiException.badRequest("New password is required");
        }
        if (next.length() < MIN_PASSWORD) {
            throw ApiException.badRequest("New password must be at least " + MIN_PASSWORD + " characters");
        }
        if (!users.passwordMatches(u, current)) {
            throw ApiException.badRequest("Current password is incorrect");
        }
        users.changePassword(u, next);
        ctx.json(ok("Password changed successfully"));
    }

    private void logout(Context ctx) {
        requireUser(ctx);
        users.logout(token(ctx));
        ctx.json(ok("Logout successful"));
    }

    private void validateSession(Context ctx) {
        User u = users.userForSession(token(ctx));
        if (u == null) {
            throw new ApiException(401, "Invalid or expired session", Map.of("valid", false));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("success", true);
        out.put("valid", true);
        out.put("userId", u.userId);
        ctx.json(out);
    }

    private void deleteUser(Context ctx) {
        User u = requireUser(ctx);
        String userId = ctx.pathParam("userId");
        if (!u.userId.equals(userId)) {
            // a session may only delete its own account
            throw new ApiException(401, "Unauthorized to delete this user");
        }
        if (!users.delete(userId)) {
            throw new ApiException(404, "User not found");
        }
        ctx.json(ok("User deleted successfully"));
    }

    // ---------------------------------------------------------------- helpers

    private User requireUser(Context ctx) {
        User u = users.userForSession(token(ctx));
        if (u == null) {
            throw ApiException.unauthorized();
        }
        return u;
    }

    private static String token(Context ctx) {
        String header = ctx.header("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String t = header.substring(7).trim();
        return t.isEmpty() ? null : t;
    }

    private static Map<String, Object> ok(String message) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("success", true);
        m.put("message", message);
        return m;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> body(Context ctx) {
        String raw = ctx.body();
        if (raw == null || raw.isBlank()) {
            throw ApiException.badRequest("Request body is required");
        }
        Object parsed;
        try {
            parsed = MAPPER.readValue(raw, Object.class);
        } catch (Exception e) {
            throw ApiException.badRequest("Malformed JSON body");
        }
        if (!(parsed instanceof Map)) {
            throw ApiException.badRequest("Request body must be a JSON object");
        }
        return (Map<String, Object>) parsed;
    }

    private static String string(Map<String, Object> body, String key) {
        Object v = body.get(key);
        if (v == null) {
            return null;
        }
        if (!(v instanceof String s)) {
            throw ApiException.badRequest(key + " must be a string");
        }
        return s;
    }
}
