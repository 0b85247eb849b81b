package com.example.inventory.web;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

final class Validation {

    private Validation() {
    }

    static String check(JsonObject o) {
        for (String f : new String[] {"sku", "name"}) {
            JsonElement e = o.get(f);
            if (e == null || e.isJsonNull() || e.getAsString().isBlank()) {
                return f + " is required";
            }
        }
        JsonElement q = o.get("quantity");
        if (q == null || q.isJsonNull() || q.getAsDouble() < 0 || q.getAsDouble() % 1 != 0) {
            return "quantity must be a non-negative integer";
        }
        JsonElement p = o.get("price");
        if (p == null || p.isJsonNull() || p.getAsDouble() < 0) {
            return "price must be a non-negative number";
        }
        return null;
    }
}
