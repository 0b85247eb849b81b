package com.example.auth;

import java.util.LinkedHashMap;
import java.util.Map;

/** An error answered as {"success": false, "message": ..., ...extra} with the given HTTP status. */
public class ApiException extends RuntimeException {
    private final int status;
    private final Map<String, Object> extra;

    public ApiException(int status, String message) {
        this(status, message, Map.of());
    }

    public ApiException(int status, String message, Map<String, Object> extra) {
        super(message);
        this.status = status;
        this.extra = extra;
    }

    public int status() {
        return status;
    }

    public Map<String, Object> body() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("success", false);
        m.putAll(extra);
        m.put("message", getMessage());
        return m;
    }

    public static ApiException unauthorized() {
        return new ApiException(401, "Unauthorized");
    }

    public static ApiException badRequest(String message) {
        return new ApiException(400, message);
    }
}
