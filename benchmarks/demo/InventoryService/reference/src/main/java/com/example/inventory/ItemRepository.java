package com.example.inventory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Thread-safe in-memory store of items, keyed and ordered by id. */
public final class ItemRepository {

    private final Map<Long, Item> items = new TreeMap<>();
    private long lastId;

    public synchronized Item create(ItemDraft d) {
        long id = ++lastId;
        Item item = new Item(id, d.sku(), d.name(), d.quantity(), d.price(), d.category());
        items.put(id, item);
        return item;
    }

    public synchronized Optional<Item> find(long id) {
        return Optional.ofNullable(items.get(id));
    }

    public synchronized List<Item> list(String category) {
        List<Item> out = new ArrayList<>();
        for (Item item : items.values()) {
            if (category == null || category.equals(item.category())) {
                out.add(item);
            }
        }
        return out;
    }

    public synchronized Optional<Item> replace(long id, ItemDraft d) {
        if (!items.containsKey(id)) {
            return Optional.empty();
        }
        Item updated = new Item(id, d.sku(), d.name(), d.quantity(), d.price(), d.category());
        items.put(id, updated);
        return Optional.of(updated);
    }

    public synchronized boolean delete(long id) {
        return items.remove(id) != null;
    }

    /**
     * Adds delta to the quantity of an item.
     *
     * @return the updated item, or empty when the id is unknown
     * @throws BadRequestException when the quantity would become negative
     */
    public synchronized Optional<Item> adjust(long id, long delta) {
        Item current = items.get(id);
        if (current == null) {
            return Optional.empty();
        }
        long next;
        try {
            next = Math.addExact(current.quantity(), delta);
        } catch (ArithmeticException e) {
            throw new BadRequestException("quantity out of range");
        }
        if (next < 0) {
            throw new BadRequestException("insufficient stock: quantity is " + current.quantity());
        }
        Item updated = current.withQuantity(next);
        items.put(id, updated);
        return Optional.of(updated);
    }
}
