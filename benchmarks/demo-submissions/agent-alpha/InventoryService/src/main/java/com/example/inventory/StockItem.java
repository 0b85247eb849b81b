package com.example.inventory;

public class StockItem {
    Long id;
    String sku;
    String name;
    Long quantity;
    Double price;
    String category;

    String validate() {
        if (sku == null || sku.trim().isEmpty()) return "sku is required";
        if (name == null || name.trim().isEmpty()) return "name is required";
        if (quantity == null) return "quantity is required";
        if (quantity < 0) return "quantity must be >= 0";
        if (price == null) return "price is required";
        if (price < 0) return "price must be >= 0";
        return null;
    }
}
