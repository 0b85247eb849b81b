package com.example.inventory;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;

public class Main {
    public static void main(String[] args) throws Exception {
        String portEnv = System.getenv().getOrDefault("PORT", "8090");
        int port = Integer.parseInt(portEnv);
        HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
        InventoryHandler handler = new InventoryHandler();
        server.createContext("/", handler);
        server.setExecutor(Executors.newCachedThreadPool());
        server.start();
        System.out.println("Inventory service started on port " + port);
    }
}
