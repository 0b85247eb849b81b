package com.example.auth;

import io.javalin.Javalin;

/**
 * Entry point of the User Authentication Platform.
 * {@link #start(int)} creates a fresh application with its own in-memory user store and starts it (0 = any free
 * port).
 */
public final class Main {

    private Main() {
    }

    public static Javalin create() {
        return new AuthApi(new UserService()).create();
    }

    public static Javalin start(int port) {
        return create().start(port);
    }

    public static void main(String[] args) {
        int port = 7070;
        String env = System.getenv("PORT");
        if (env != null && !env.isBlank()) {
            port = Integer.parseInt(env.trim());
        }
        create().start("0.0.0.0", port);
    }
}
