package com.example.inventory;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Entry point: starts the inventory HTTP service on $PORT (default 8090). */
public final class InventoryApplication {

    static final int DEFAULT_PORT = 8090;

    private InventoryApplication() {
    }

    public static void main(String[] args) throws IOException {
        int port = readPort(System.getenv("PORT"));
        HttpServer server = start(port);
        System.out.println("InventoryService listening on port " + server.getAddress().getPort());
    }

    /** Starts a server on the given port (0 picks a free one) and returns it. */
    public static HttpServer start(int port) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("0.0.0.0", port), 128);
        ExecutorService workers = Executors.newFixedThreadPool(16);
        server.setExecutor(workers);
        server.createContext("/", new Router(new ItemRepository()));
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop(0);
            workers.shutdownNow();
        }));
        return server;
    }

    static int readPort(String value) {
        if (value == null || value.isBlank()) {
            return DEFAULT_PORT;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            System.err.println("Ignoring invalid PORT value '" + value + "', using " + DEFAULT_PORT);
            return DEFAULT_PORT;
        }
    }
}
