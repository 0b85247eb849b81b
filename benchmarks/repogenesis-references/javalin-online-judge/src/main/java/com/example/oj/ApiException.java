package com.example.oj;

/** An error returned to the client as {"error": message} with the given HTTP status. */
public class ApiException extends RuntimeException {
    private final int status;

    public ApiException(int status, String message) {
        super(message);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
