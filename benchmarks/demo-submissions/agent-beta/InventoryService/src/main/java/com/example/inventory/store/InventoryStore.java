package com.example.inventory.store;

import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** In-memory item storage. */
public class InventoryStore {

    private final Map<Long, JsonObject> data = new LinkedHashMap<>();
    private long counter = 0;

    public synchronized JsonObject insert(JsonObject item) {
        counter++;
        JsonObject copy = item.deepCopy();
        copy.addProperty("id", counter);
        if (!copy.has("category")) {
            copy.add("category", null);
        }
        data.put(counter, copy);
        return copy;
    }

    public synchronized JsonObject get(long id) {
        return data.get(id);
    }

    public synchronized List<JsonObject> all() {
        return new ArrayList<>(data.values());
    }

    public synchronized JsonObject put(long id, JsonObject item) {
        if (!data.containsKey(id)) {
            return null;
        }
        JsonObject copy = item.deepCopy();
        copy.addProperty("id", id);
        data.put(id, copy);
        return copy;
    }

    public synchronized boolean remove(long id) {
        return data.remove(id) != null;
    }

    public synchronized JsonObject changeQuantity(long id, long delta) {
        JsonObject item = data.get(id);
        if (item == null) {
            return null;
        }
        long q = item.get("quantity").getAsLong() + delta;
        if (q < 0) {
            throw new IllegalArgumentException("stock would become negative");
        }
        item.addProperty("quantity", q);
        return item;
    }
}
