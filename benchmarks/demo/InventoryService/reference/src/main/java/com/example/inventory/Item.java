package com.example.inventory;

import com.google.gson.JsonNull;
import com.google.gson.JsonObject;

/** One stock item. Instances are immutable; updates create new instances. */
public final class Item {

    private final long id;
    private final String sku;
    private final String name;
    private final long quantity;
    private final double price;
    private final String category;

    public Item(long id, String sku, String name, long quantity, double price, String category) {
        this.id = id;
        this.sku = sku;
        this.name = name;
        this.quantity = quantity;
        this.price = price;
        this.category = category;
    }

    public long id() {
        return id;
    }

    public String sku() {
        return sku;
    }

    public String name() {
        return name;
    }

    public long quantity() {
        return quantity;
    }

    public double price() {
        return price;
    }

    public String category() {
        return category;
    }

    public Item withQuantity(long newQuantity) {
        return new Item(id, sku, name, newQuantity, price, category);
    }

    /** JSON form with every field present ("category" is null when absent). */
    public JsonObject toJson() {
        JsonObject o = new JsonObject();
        o.addProperty("id", id);
        o.addProperty("sku", sku);
        o.addProperty("name", name);
        o.addProperty("quantity", quantity);
        o.addProperty("price", price);
        if (category == null) {
            o.add("category", JsonNull.INSTANCE);
        } else {
            o.addProperty("category", category);
        }
        return o;
    }
}
