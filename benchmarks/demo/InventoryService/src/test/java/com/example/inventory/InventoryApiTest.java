package com.example.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Black-box tests for the InventoryService HTTP API. The service must already be
 * running; its root URL comes from API_BASE_URL (default http://localhost:8090).
 */
class InventoryApiTest {

    private static final String BASE = resolveBaseUrl();
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private static final long UNKNOWN_ID = 987654321L;

    private static String resolveBaseUrl() {
        String url = null;
        for (String name : new String[] {"API_BASE_URL", "SERVICE_BASE_URL", "BASE_URL"}) {
            String v = System.getenv(name);
            if (v != null && !v.isBlank()) {
                url = v.trim();
                break;
            }
        }
        if (url == null) {
            url = "http://localhost:8090";
        }
        while (url.endsWith("/")) {
            url = url.substring(0, url.length() - 1);
        }
        if (url.endsWith("/api")) {
            url = url.substring(0, url.length() - 4);
        }
        return url;
    }

    /** Result of one HTTP exchange. */
    private record Reply(int status, String body) {
        JsonObject object() {
            JsonElement e = JsonParser.parseString(body);
            assertTrue(e.isJsonObject(), "expected a JSON object but got: " + body);
            return e.getAsJsonObject();
        }

        JsonArray array() {
            JsonElement e = JsonParser.parseString(body);
            assertTrue(e.isJsonArray(), "expected a JSON array but got: " + body);
            return e.getAsJsonArray();
        }
    }

    private static Reply send(String method, String path, String jsonBody) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(BASE + path))
                .timeout(Duration.ofSeconds(10))
                .header("Accept", "application/json");
        if (jsonBody == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            b.header("Content-Type", "application/json");
            b.method(method, HttpRequest.BodyPublishers.ofString(jsonBody));
        }
        HttpResponse<String> r = CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(r.statusCode(), r.body());
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static JsonObject itemJson(String sku, String name, long quantity, double price, String category) {
        JsonObject o = new JsonObject();
        o.addProperty("sku", sku);
        o.addProperty("name", name);
        o.addProperty("quantity", quantity);
        o.addProperty("price", price);
        if (category != null) {
            o.addProperty("category", category);
        }
        return o;
    }

    /** Creates an item and returns the body the service sent back (status checked loosely: 2xx). */
    private static JsonObject createItem(String category, long quantity) throws IOException, InterruptedException {
        Reply r = send("POST", "/api/items",
                itemJson(unique("SKU"), unique("Widget"), quantity, 4.5, category).toString());
        assertTrue(r.status() >= 200 && r.status() < 300, "create failed with " + r.status() + ": " + r.body());
        JsonObject o = r.object();
        assertTrue(o.has("id") && o.get("id").isJsonPrimitive(), "created item has no id: " + r.body());
        return o;
    }

    private static long idOf(JsonObject item) {
        return item.get("id").getAsLong();
    }

    @BeforeAll
    static void waitForService() throws InterruptedException {
        long deadline = System.currentTimeMillis() + 15_000;
        while (System.currentTimeMillis() < deadline) {
            try {
                if (send("GET", "/health", null).status() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not up yet
            }
            Thread.sleep(250);
        }
    }

    @Test
    void healthReportsOk() throws Exception {
        Reply r = send("GET", "/health", null);
        assertEquals(200, r.status());
        assertEquals("ok", r.object().get("status").getAsString());
    }

    @Test
    void createItemReturns201WithAllFields() throws Exception {
        String sku = unique("BOLT");
        Reply r = send("POST", "/api/items", itemJson(sku, "Hex bolt M6", 250, 0.12, "hardware").toString());
        assertEquals(201, r.status(), r.body());
        JsonObject o = r.object();
        assertTrue(o.get("id").getAsLong() > 0);
        assertEquals(sku, o.get("sku").getAsString());
        assertEquals("Hex bolt M6", o.get("name").getAsString());
        assertEquals(250, o.get("quantity").getAsLong());
        assertEquals(0.12, o.get("price").getAsDouble(), 1e-9);
        assertEquals("hardware", o.get("category").getAsString());
    }

    @Test
    void createAssignsDistinctIds() throws Exception {
        long a = idOf(createItem(null, 1));
        long b = idOf(createItem(null, 1));
        assertFalse(a == b, "two created items share id " + a);
    }

    @Test
    void createWithoutNameReturns400() throws Exception {
        JsonObject body = itemJson(unique("SKU"), "x", 3, 1.0, null);
        body.remove("name");
        Reply r = send("POST", "/api/items", body.toString());
        assertEquals(400, r.status(), r.body());
        assertTrue(r.object().has("error"), "error body expected: " + r.body());
    }

    @Test
    void createWithNegativeQuantityReturns400() throws Exception {
        Reply r = send("POST", "/api/items", itemJson(unique("SKU"), "Nut", -5, 1.0, null).toString());
        assertEquals(400, r.status(), r.body());
    }

    @Test
    void createWithMalformedJsonReturns400() throws Exception {
        Reply r = send("POST", "/api/items", "{\"sku\": \"A1\", \"name\": ");
        assertEquals(400, r.status(), r.body());
    }

    @Test
    void getItemReturnsStoredItem() throws Exception {
        JsonObject created = createItem("tools", 7);
        long id = idOf(created);
        Reply r = send("GET", "/api/items/" + id, null);
        assertEquals(200, r.status(), r.body());
        JsonObject o = r.object();
        assertEquals(id, o.get("id").getAsLong());
        assertEquals(created.get("sku").getAsString(), o.get("sku").getAsString());
        assertEquals(7, o.get("quantity").getAsLong());
        assertEquals("tools", o.get("category").getAsString());
    }

    @Test
    void getUnknownItemReturns404() throws Exception {
        Reply r = send("GET", "/api/items/" + UNKNOWN_ID, null);
        assertEquals(404, r.status(), r.body());
        assertTrue(r.object().has("error"), "error body expected: " + r.body());
    }

    @Test
    void listFiltersByCategory() throws Exception {
        String category = unique("cat");
        long first = idOf(createItem(category, 1));
        long second = idOf(createItem(category, 2));
        createItem(unique("other"), 3);

        Reply r = send("GET", "/api/items?category=" + category, null);
        assertEquals(200, r.status(), r.body());
        JsonArray arr = r.array();
        assertEquals(2, arr.size(), r.body());
        assertEquals(first, arr.get(0).getAsJsonObject().get("id").getAsLong());
        assertEquals(second, arr.get(1).getAsJsonObject().get("id").getAsLong());
        for (JsonElement e : arr) {
            assertEquals(category, e.getAsJsonObject().get("category").getAsString());
        }
    }

    @Test
    void updateReplacesFields() throws Exception {
        long id = idOf(createItem("paint", 10));
        String newSku = unique("PAINT");
        Reply r = send("PUT", "/api/items/" + id, itemJson(newSku, "White paint 5L", 42, 19.99, "decor").toString());
        assertEquals(200, r.status(), r.body());
        JsonObject o = r.object();
        assertEquals(id, o.get("id").getAsLong());
        assertEquals(newSku, o.get("sku").getAsString());
        assertEquals(42, o.get("quantity").getAsLong());
        assertEquals(19.99, o.get("price").getAsDouble(), 1e-9);

        JsonObject fetched = send("GET", "/api/items/" + id, null).object();
        assertEquals("White paint 5L", fetched.get("name").getAsString());
        assertEquals("decor", fetched.get("category").getAsString());
    }

    @Test
    void updateWithNegativePriceReturns400AndKeepsItem() throws Exception {
        JsonObject created = createItem(null, 5);
        long id = idOf(created);
        Reply r = send("PUT", "/api/items/" + id, itemJson(unique("SKU"), "Cheap", 5, -1.0, null).toString());
        assertEquals(400, r.status(), r.body());
        JsonObject fetched = send("GET", "/api/items/" + id, null).object();
        assertEquals(created.get("sku").getAsString(), fetched.get("sku").getAsString());
    }

    @Test
    void updateUnknownItemReturns404() throws Exception {
        Reply r = send("PUT", "/api/items/" + UNKNOWN_ID, itemJson(unique("SKU"), "Ghost", 1, 1.0, null).toString());
        assertEquals(404, r.status(), r.body());
    }

    @Test
    void deleteReturns204ThenItemIsGone() throws Exception {
        long id = idOf(createItem(null, 1));
        Reply del = send("DELETE", "/api/items/" + id, null);
        assertEquals(204, del.status(), del.body());
        assertEquals(404, send("GET", "/api/items/" + id, null).status());
        assertEquals(404, send("DELETE", "/api/items/" + id, null).status());
    }

    @Test
    void adjustChangesQuantity() throws Exception {
        long id = idOf(createItem(null, 10));
        Reply up = send("POST", "/api/items/" + id + "/adjust", "{\"delta\": 5}");
        assertEquals(200, up.status(), up.body());
        assertEquals(15, up.object().get("quantity").getAsLong());

        Reply down = send("POST", "/api/items/" + id + "/adjust", "{\"delta\": -12}");
        assertEquals(200, down.status(), down.body());
        assertEquals(3, down.object().get("quantity").getAsLong());

        assertEquals(3, send("GET", "/api/items/" + id, null).object().get("quantity").getAsLong());
    }

    @Test
    void adjustBelowZeroReturns400AndLeavesQuantity() throws Exception {
        long id = idOf(createItem(null, 2));
        Reply r = send("POST", "/api/items/" + id + "/adjust", "{\"delta\": -3}");
        assertEquals(400, r.status(), r.body());
        assertEquals(2, send("GET", "/api/items/" + id, null).object().get("quantity").getAsLong());
    }
}
