package com.example.inventory;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.math.BigDecimal;

/** Validated client input for creating or replacing an item. */
public record ItemDraft(String sku, String name, long quantity, double price, String category) {

    /** Validates a request body; throws {@link BadRequestException} describing the first problem. */
    public static ItemDraft fromJson(JsonElement body) {
        if (body == null || !body.isJsonObject()) {
            throw new BadRequestException("request body must be a JSON object");
        }
        JsonObject o = body.getAsJsonObject();
        String sku = requiredText(o, "sku");
        String name = requiredText(o, "name");
        long quantity = wholeNumber(o, "quantity");
        if (quantity < 0) {
            throw new BadRequestException("'quantity' must not be negative");
        }
        double price = number(o, "price").doubleValue();
        if (price < 0 || Double.isInfinite(price)) {
            throw new BadRequestException("'price' must be a number >= 0");
        }
        String category = null;
        JsonElement c = o.get("category");
        if (c != null && !c.isJsonNull()) {
            if (!isString(c)) {
                throw new BadRequestException("'category' must be a string");
            }
            category = c.getAsString();
        }
        return new ItemDraft(sku, name, quantity, price, category);
    }

    static long wholeNumber(JsonObject o, String field) {
        BigDecimal value = number(o, field);
        try {
            return value.stripTrailingZeros().longValueExact();
        } catch (ArithmeticException e) {
            throw new BadRequestException("'" + field + "' must be a whole number");
        }
    }

    private static BigDecimal number(JsonObject o, String field) {
        JsonElement e = o.get(field);
        if (e == null || e.isJsonNull()) {
            throw new BadRequestException("'" + field + "' is required");
        }
        if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber()) {
            throw new BadRequestException("'" + field + "' must be a number");
        }
        try {
            return e.getAsBigDecimal();
        } catch (NumberFormatException ex) {
            throw new BadRequestException("'" + field + "' must be a number");
        }
    }

    private static String requiredText(JsonObject o, String field) {
        JsonElement e = o.get(field);
        if (e == null || e.isJsonNull()) {
            throw new BadRequestException("'" + field + "' is required");
        }
        if (!isString(e)) {
            throw new BadRequestException("'" + field + "' must be a string");
        }
        String s = e.getAsString();
        if (s.isBlank()) {
            throw new BadRequestException("'" + field + "' must not be blank");
        }
        return s;
    }

    private static boolean isString(JsonElement e) {
        if (!e.isJsonPrimitive()) {
            return false;
        }
        JsonPrimitive p = e.getAsJsonPrimitive();
        return p.isString();
    }
}
