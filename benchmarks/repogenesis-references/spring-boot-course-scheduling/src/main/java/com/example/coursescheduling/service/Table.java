package com.example.coursescheduling.service;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/** A tiny in-memory table keyed by generated ids (kept in id order). Callers synchronize. */
public class Table<T> {
    private final Map<Long, T> rows = new TreeMap<>();
    private final AtomicLong sequence = new AtomicLong();

    public long nextId() {
        return sequence.incrementAndGet();
    }

    public void put(Long id, T row) {
        rows.put(id, row);
    }

    public Optional<T> find(Long id) {
        return id == null ? Optional.empty() : Optional.ofNullable(rows.get(id));
    }

    public boolean exists(Long id) {
        return id != null && rows.containsKey(id);
    }

    public T remove(Long id) {
        return rows.remove(id);
    }

    public List<T> all() {
        return new ArrayList<>(rows.values());
    }
}
