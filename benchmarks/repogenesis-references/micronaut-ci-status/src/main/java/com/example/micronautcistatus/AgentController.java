package com.example.micronautcistatus;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

@Controller("/agents")
public class AgentController {

    private static final Set<String> STATUSES = Set.of("IDLE", "BUSY", "OFFLINE");

    private final CiStore store;

    public AgentController(CiStore store) {
        this.store = store;
    }

    @Get
    public List<Map<String, Object>> list() {
        return store.listAgents().stream()
                .map(a -> Views.map("id", a.id, "name", a.name, "status", a.status))
                .collect(Collectors.toList());
    }

    @Post
    public HttpResponse<Map<String, Object>> register(@Nullable @Body Map<String, Object> body) {
        String name = Views.str(body, "name");
        if (Views.blank(name)) {
            return HttpResponse.badRequest(Views.error("name is required"));
        }
        List<String> caps = new ArrayList<>();
        Object raw = body.get("capabilities");
        if (raw instanceof List<?> l) {
            l.forEach(c -> caps.add(String.valueOf(c)));
        }
        CiStore.Agent a = store.registerAgent(name, caps);
        return HttpResponse.created(Views.map("id", a.id, "token", a.token, "name", a.name, "status", a.status));
    }

    @Get("/{id}")
    public HttpResponse<Map<String, Object>> get(String id) {
        CiStore.Agent a = store.getAgent(id);
        return a == null ? HttpResponse.notFound(Views.error("agent not found")) : HttpResponse.ok(Views.agent(a));
    }

    @Put("/{id}/status")
    public HttpResponse<Map<String, Object>> status(String id, @Nullable @Body Map<String, Object> body) {
        String status = Views.str(body, "status");
        if (status == null || !STATUSES.contains(status.toUpperCase())) {
            return HttpResponse.badRequest(Views.error("status must be one of IDLE, BUSY, OFFLINE"));
        }
        CiStore.Agent a = store.updateAgentStatus(id, status.toUpperCase());
        return a == null ? HttpResponse.notFound(Views.error("agent not found"))
                : HttpResponse.ok(Views.map("id", a.id, "status", a.status));
    }
}
