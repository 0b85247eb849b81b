package com.example.inventory;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonSyntaxException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

public class InventoryHandler implements HttpHandler {
    private final Gson gson = new GsonBuilder().serializeNulls().create();
    private final Map<Long, StockItem> items = new ConcurrentSkipListMap<>();
    private final AtomicLong nextId = new AtomicLong(1);

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getPath();
        try {
            if (path.equals("/health") && method.equals("GET")) {
                respond(exchange, 200, Map.of("status", "ok"));
            } else if (path.equals("/api/items")) {
                if (method.equals("GET")) {
                    listItems(exchange);
                } else if (method.equals("POST")) {
                    createItem(exchange);
                } else {
                    respond(exchange, 405, Map.of("error", "Method not allowed"));
                }
            } else if (path.matches("/api/items/[^/]+")) {
                String idPart = path.substring("/api/items/".length());
                Long id = toId(idPart);
                StockItem existing = id == null ? null : items.get(id);
                if (existing == null) {
                    respond(exchange, 404, Map.of("error", "Item not found"));
                    return;
                }
                switch (method) {
                    case "GET":
                        respond(exchange, 200, existing);
                        break;
                    case "PUT":
                        updateItem(exchange, id);
                        break;
                    case "DELETE":
                        items.remove(id);
                        exchange.sendResponseHeaders(204, -1);
                        break;
                    default:
                        respond(exchange, 405, Map.of("error", "Method not allowed"));
                }
            } else {
                respond(exchange, 404, Map.of("error", "Not found"));
            }
        } catch (JsonSyntaxException e) {
            respond(exchange, 400, Map.of("error", "Invalid JSON"));
        } finally {
            exchange.close();
        }
    }

    private void listItems(HttpExchange exchange) throws IOException {
        String query = exchange.getRequestURI().getQuery();
        String category = null;
        if (query != null) {
            for (String part : query.split("&")) {
                if (part.startsWith("category=")) {
                    category = part.substring("category=".length());
                }
            }
        }
        List<StockItem> result = new ArrayList<>();
        for (StockItem item : items.values()) {
            if (category == null || category.equals(item.category)) {
                result.add(item);
            }
        }
        respond(exchange, 200, result);
    }

    private void createItem(HttpExchange exchange) throws IOException {
        StockItem item = readItem(exchange);
        if (item == null) {
            respond(exchange, 400, Map.of("error", "Body required"));
            return;
        }
        String problem = item.validate();
        if (problem != null) {
            respond(exchange, 400, Map.of("error", problem));
            return;
        }
        item.id = nextId.getAndIncrement();
        items.put(item.id, item);
        respond(exchange, 200, item);
    }

    private void updateItem(HttpExchange exchange, long id) throws IOException {
        StockItem item = readItem(exchange);
        if (item == null) {
            respond(exchange, 400, Map.of("error", "Body required"));
            return;
        }
        String problem = item.validate();
        if (problem != null) {
            respond(exchange, 400, Map.of("error", problem));
            return;
        }
        item.id = id;
        items.put(id, item);
        respond(exchange, 200, item);
    }

    private StockItem readItem(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        return gson.fromJson(body, StockItem.class);
    }

    private Long toId(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private void respond(HttpExchange exchange, int status, Object body) throws IOException {
        byte[] bytes = gson.toJson(body).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream os = exchange.getResponseBody()) {
            os.write(bytes);
        }
    }
}
