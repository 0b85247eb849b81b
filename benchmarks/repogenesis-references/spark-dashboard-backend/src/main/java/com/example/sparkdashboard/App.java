package com.example.sparkdashboard;

import spark.Spark;

/**
 * Entry point of the dashboard backend (Spark Java, static API).
 * {@link #start(int)} maps all routes on the given port (0 = any free port) and waits until the server accepts
 * connections, so that {@code Spark.port()} reports the real port afterwards.
 */
public final class App {

    private App() {
    }

    public static void start(int port) {
        start(null, port);
    }

    public static void start(String host, int port) {
        if (host != null) {
            Spark.ipAddress(host);
        }
        Spark.port(port);
        new DashboardApi(new DashboardStore()).register();
        Spark.awaitInitialization();
    }

    public static void main(String[] args) {
        int port = 4567;
        String env = System.getenv("PORT");
        if (env != null && !env.isBlank()) {
            port = Integer.parseInt(env.trim());
        }
        start("0.0.0.0", port);
    }
}
