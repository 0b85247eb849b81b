package com.example.oj;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.Context;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Helpers for reading and validating JSON request bodies. */
final class Json {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> body(Context ctx) {
        String raw = ctx.body();
        if (raw == null || raw.isBlank()) {
            throw new ApiException(400, "Request body must be a JSON object");
        }
        Object parsed;
        try {
            parsed = MAPPER.readValue(raw, Object.class);
        } catch (Exception e) {
            throw new ApiException(400, "Malformed JSON body");
        }
        if (!(parsed instanceof Map)) {
            throw new ApiException(400, "Request body must be a JSON object");
        }
        return (Map<String, Object>) parsed;
    }

    static String string(Map<String, Object> body, String key, boolean required) {
        Object v = body.get(key);
        if (v == null) {
            if (required) {
                throw new ApiException(400, key + " is required");
            }
            return null;
        }
        if (!(v instanceof String s)) {
            throw new ApiException(400, key + " must be a string");
        }
        if (required && s.isBlank()) {
            throw new ApiException(400, key + " must not be empty");
        }
        return s;
    }

    static Long number(Map<String, Object> body, String key, boolean required) {
        Object v = body.get(key);
        if (v == null) {
            if (required) {
                throw new ApiException(400, key + " is required");
            }
            return null;
        }
        if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())) {
            throw new ApiException(400, key + " must be an integer");
        }
        return n.longValue();
    }

    static List<String> stringList(Map<String, Object> body, String key, boolean required) {
        Object v = body.get(key);
        if (v == null) {
            if (required) {
                throw new ApiException(400, key + " is required");
            }
            return null;
        }
        if (!(v instanceof List<?> list)) {
            throw new ApiException(400, key + " must be an array of strings");
        }
        List<String> out = new ArrayList<>();
        for (Object o : list) {
            if (!(o instanceof String s)) {
                throw new ApiException(400, key + " must be an array of strings");
            }
            out.add(s);
        }
        return out;
    }

    static <E extends Enum<E>> E enumValue(Map<String, Object> body, String key, Class<E> type, boolean required) {
        String s = string(body, key, required);
        if (s == null) {
            return null;
        }
        try {
            return Enum.valueOf(type, s.trim().toUpperCase());
        } catch (IllegalArgumentException e) {
            StringBuilder allowed = new StringBuilder();
            for (E c : type.getEnumConstants()) {
                allowed.append(allowed.length() == 0 ? "" : "|").append(c.name());
            }
            throw new ApiException(400, key + " must be one of " + allowed);
        }
    }
}
