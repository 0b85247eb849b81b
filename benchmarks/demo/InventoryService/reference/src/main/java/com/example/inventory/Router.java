package com.example.inventory;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** Dispatches every request of the service. */
final class Router implements HttpHandler {

    private static final String ITEMS = "/api/items";

    private final ItemRepository repository;

    Router(ItemRepository repository) {
        this.repository = repository;
    }

    @Override
    public void handle(HttpExchange ex) throws IOException {
        try {
            dispatch(ex);
        } catch (BadRequestException e) {
            sendError(ex, 400, e.getMessage());
        } catch (RuntimeException e) {
            e.printStackTrace();
            sendError(ex, 500, "internal error");
        } finally {
            ex.close();
        }
    }

    private void dispatch(HttpExchange ex) throws IOException {
        String method = ex.getRequestMethod().toUpperCase();
        String path = ex.getRequestURI().getPath();
        if (path.length() > 1 && path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }

        if (path.equals("/health")) {
            if (!method.equals("GET")) {
                sendError(ex, 405, "method not allowed");
                return;
            }
            JsonObject ok = new JsonObject();
            ok.addProperty("status", "ok");
            sendJson(ex, 200, ok);
            return;
        }

        if (path.equals(ITEMS)) {
            switch (method) {
                case "GET" -> listItems(ex);
                case "POST" -> createItem(ex);
                default -> sendError(ex, 405, "method not allowed");
            }
            return;
        }

        if (path.startsWith(ITEMS + "/")) {
            String[] parts = path.substring(ITEMS.length() + 1).split("/");
            if (parts.length == 1) {
                Long id = parseId(parts[0]);
                switch (method) {
                    case "GET" -> getItem(ex, id);
                    case "PUT" -> replaceItem(ex, id);
                    case "DELETE" -> deleteItem(ex, id);
                    default -> sendError(ex, 405, "method not allowed");
                }
                return;
            }
            if (parts.length == 2 && parts[1].equals("adjust")) {
                if (!method.equals("POST")) {
                    sendError(ex, 405, "method not allowed");
                    return;
                }
                adjustItem(ex, parseId(parts[0]));
                return;
            }
        }

        sendError(ex, 404, "no route for " + method + " " + path);
    }

    private void listItems(HttpExchange ex) throws IOException {
        String category = queryParam(ex.getRequestURI().getRawQuery(), "category");
        JsonArray arr = new JsonArray();
        for (Item item : repository.list(category)) {
            arr.add(item.toJson());
        }
        sendJson(ex, 200, arr);
    }

    private void createItem(HttpExchange ex) throws IOException {
        ItemDraft draft = ItemDraft.fromJson(readJson(ex));
        sendJson(ex, 201, repository.create(draft).toJson());
    }

    private void getItem(HttpExchange ex, Long id) throws IOException {
        Optional<Item> item = id == null ? Optional.empty() : repository.find(id);
        if (item.isEmpty()) {
            sendNotFound(ex);
            return;
        }
        sendJson(ex, 200, item.get().toJson());
    }

    private void replaceItem(HttpExchange ex, Long id) throws IOException {
        if (id == null || repository.find(id).isEmpty()) {
            sendNotFound(ex);
            return;
        }
        ItemDraft draft = ItemDraft.fromJson(readJson(ex));
        Optional<Item> updated = repository.replace(id, draft);
        if (updated.isEmpty()) {
            sendNotFound(ex);
            return;
        }
        sendJson(ex, 200, updated.get().toJson());
    }

    private void deleteItem(HttpExchange ex, Long id) throws IOException {
        if (id == null || !repository.delete(id)) {
            sendNotFound(ex);
            return;
        }
        ex.sendResponseHeaders(204, -1);
    }

    private void adjustItem(HttpExchange ex, Long id) throws IOException {
        if (id == null || repository.find(id).isEmpty()) {
            sendNotFound(ex);
            return;
        }
        JsonElement body = readJson(ex);
        if (body == null || !body.isJsonObject()) {
            throw new BadRequestException("request body must be a JSON object");
        }
        long delta = ItemDraft.wholeNumber(body.getAsJsonObject(), "delta");
        if (delta == 0) {
            throw new BadRequestException("'delta' must not be 0");
        }
        Optional<Item> updated = repository.adjust(id, delta);
        if (updated.isEmpty()) {
            sendNotFound(ex);
            return;
        }
        sendJson(ex, 200, updated.get().toJson());
    }

    private static Long parseId(String raw) {
        try {
            long id = Long.parseLong(raw);
            return id > 0 ? id : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String queryParam(String rawQuery, String name) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return null;
        }
        for (String pair : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            if (key.equals(name)) {
                return eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private static JsonElement readJson(HttpExchange ex) throws IOException {
        String text;
        try (InputStream in = ex.getRequestBody()) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (text.isBlank()) {
            throw new BadRequestException("request body is empty");
        }
        try {
            return JsonParser.parseString(text);
        } catch (JsonParseException e) {
            throw new BadRequestException("malformed JSON");
        }
    }

    private static void sendNotFound(HttpExchange ex) throws IOException {
        sendError(ex, 404, "item not found");
    }

    private static void sendError(HttpExchange ex, int status, String message) throws IOException {
        JsonObject err = new JsonObject();
        err.addProperty("error", message);
        sendJson(ex, status, err);
    }

    private static void sendJson(HttpExchange ex, int status, JsonElement body) throws IOException {
        byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }
}
