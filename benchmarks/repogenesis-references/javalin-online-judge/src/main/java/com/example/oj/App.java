package com.example.oj;

import io.javalin.Javalin;

/**
 * Entry point of the Online Judge service.
 * {@link #start(int)} creates a fresh application with its own in-memory state and starts it (0 = any free port).
 */
public final class App {

    private App() {
    }

    public static Javalin create() {
        return new JudgeApi(new JudgeStore()).create();
    }

    public static Javalin start(int port) {
        return create().start(port);
    }

    public static void main(String[] args) {
        int port = 7000;
        String env = System.getenv("PORT");
        if (env != null && !env.isBlank()) {
            port = Integer.parseInt(env.trim());
        }
        create().start("0.0.0.0", port);
    }
}
