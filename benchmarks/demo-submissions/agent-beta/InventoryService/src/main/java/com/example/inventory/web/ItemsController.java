package com.example.inventory.web;

import com.example.inventory.store.InventoryStore;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

public class ItemsController implements HttpHandler {

    private final InventoryStore store;

    public ItemsController(InventoryStore store) {
        this.store = store;
    }

    @Override
    public void handle(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath();
        String method = ex.getRequestMethod();
        try {
            if (path.equals("/health")) {
                write(ex, 200, "{\"status\":\"ok\"}");
            } else if (path.equals("/api/items") && method.equals("POST")) {
                JsonObject body = parse(ex);
                String err = Validation.check(body);
                if (err != null) {
                    write(ex, 400, error(err));
                } else {
                    write(ex, 201, store.insert(body).toString());
                }
            } else if (path.equals("/api/items") && method.equals("GET")) {
                String cat = query(ex, "category");
                JsonArray arr = new JsonArray();
                for (JsonObject o : store.all()) {
                    if (cat == null || (o.get("category") != null && !o.get("category").isJsonNull()
                            && o.get("category").getAsString().equals(cat))) {
                        arr.add(o);
                    }
                }
                write(ex, 200, arr.toString());
            } else if (path.startsWith("/api/items/")) {
                String[] seg = path.substring(11).split("/");
                long id = Long.parseLong(seg[0]);
                JsonObject existing = store.findById(id);
                if (existing == null) {
                    write(ex, 404, error("item not found"));
                } else if (seg.length == 2 && seg[1].equals("adjust") && method.equals("POST")) {
                    JsonObject body = parse(ex);
                    long delta = body.get("delta").getAsLong();
                    write(ex, 200, store.changeQuantity(id, delta).toString());
                } else if (method.equals("GET")) {
                    write(ex, 200, existing.toString());
                } else if (method.equals("PUT")) {
                    JsonObject body = parse(ex);
                    String err = Validation.check(body);
                    if (err != null) {
                        write(ex, 400, error(err));
                    } else {
                        write(ex, 200, store.put(id, body).toString());
                    }
                } else if (method.equals("DELETE")) {
                    store.remove(id);
                    ex.sendResponseHeaders(204, -1);
                } else {
                    write(ex, 405, error("method not allowed"));
                }
            } else {
                write(ex, 404, error("not found"));
            }
        } catch (NumberFormatException e) {
            write(ex, 404, error("item not found"));
        } catch (RuntimeException e) {
            write(ex, 400, error(e.getMessage()));
        } finally {
            ex.close();
        }
    }

    private static JsonObject parse(HttpExchange ex) throws IOException {
        String text = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        JsonElement el = JsonParser.parseString(text);
        if (!el.isJsonObject()) {
            throw new IllegalArgumentException("body must be an object");
        }
        return el.getAsJsonObject();
    }

    private static String query(HttpExchange ex, String key) {
        String q = ex.getRequestURI().getQuery();
        if (q == null) {
            return null;
        }
        for (String kv : q.split("&")) {
            String[] p = kv.split("=", 2);
            if (p[0].equals(key) && p.length == 2) {
                return p[1];
            }
        }
        return null;
    }

    private static String error(String msg) {
        JsonObject o = new JsonObject();
        o.addProperty("error", msg);
        return o.toString();
    }

    private static void write(HttpExchange ex, int status, String json) throws IOException {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, b.length);
        ex.getResponseBody().write(b);
    }
}
