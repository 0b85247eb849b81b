package com.example.javalintaskmanager;

import io.javalin.Javalin;

/**
 * Entry point of the Javalin Task Manager.
 * {@link #start(int)} creates a fresh application (with its own in-memory store) and starts it on the given port
 * (0 picks a free port).
 */
public final class App {

    private App() {
    }

    public static Javalin create() {
        return new TaskManagerApi(new Store()).create();
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
