package com.example.micronautcistatus;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

@Controller("/builds")
public class BuildController {

    private final CiStore store;

    public BuildController(CiStore store) {
        this.store = store;
    }

    @Get("/{id}")
    public HttpResponse<Map<String, Object>> get(String id) {
        CiStore.Build b = store.getBuild(id);
        return b == null ? HttpResponse.notFound(Views.error("build not found")) : HttpResponse.ok(Views.build(b));
    }

    @Get("/{id}/status")
    public HttpResponse<Map<String, Object>> status(String id) {
        CiStore.Build b = store.getBuild(id);
        return b == null ? HttpResponse.notFound(Views.error("build not found"))
                : HttpResponse.ok(Views.map("status", b.status));
    }

    @Post("/{id}/cancel")
    public HttpResponse<Map<String, Object>> cancel(String id) {
        CiStore.Build b = store.cancelBuild(id);
        return b == null ? HttpResponse.notFound(Views.error("build not found"))
                : HttpResponse.ok(Views.map("id", b.id, "status", b.status));
    }

    @Get("/{id}/logs")
    public HttpResponse<Map<String, Object>> logs(String id) {
        CiStore.Build b = store.getBuild(id);
        if (b == null) {
            return HttpResponse.notFound(Views.error("build not found"));
        }
        synchronized (store) {
            return HttpResponse.ok(Views.map("logs", new ArrayList<>(b.logs)));
        }
    }

    @Get("/{id}/artifacts")
    public HttpResponse<List<Map<String, Object>>> artifacts(String id) {
        CiStore.Build b = store.getBuild(id);
        if (b == null) {
            return HttpResponse.notFound();
        }
        synchronized (store) {
            return HttpResponse.ok(new ArrayList<>(b.artifacts));
        }
    }
}
