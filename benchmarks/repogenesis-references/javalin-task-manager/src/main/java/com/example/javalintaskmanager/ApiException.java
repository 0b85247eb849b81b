package com.example.javalintaskmanager;

/** An error that is turned into a JSON response {"error": message} with the given HTTP status. */
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
