package com.example.micronautcistatus;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.Micronaut;

import java.util.Map;

public class Application {

    public static void main(String[] args) {
        Micronaut.run(Application.class, args);
    }

    /**
     * Starts the application context together with its embedded HTTP server on the given port
     * (0 picks a free port). The returned context owns the server; close it to stop.
     */
    public static ApplicationContext start(int port) {
        return Micronaut.build(new String[0])
                .mainClass(Application.class)
                .properties(Map.of("micronaut.server.port", port))
                .start();
    }
}
