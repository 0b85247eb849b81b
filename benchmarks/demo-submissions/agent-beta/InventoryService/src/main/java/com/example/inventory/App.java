package com.example.inventory;

import com.example.inventory.store.InventoryStore;
import com.example.inventory.web.ItemsController;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;

public final class App {

    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(System.getenv().getOrDefault("PORT", "8090"));
        InventoryStore store = new InventoryStore();
        HttpServer server = HttpServer.create(new InetSocketAddress("0.0.0.0", port), 0);
        server.createContext("/", new ItemsController(store));
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.start();
        System.out.printf("listening on :%d%n", port);
    }
}
