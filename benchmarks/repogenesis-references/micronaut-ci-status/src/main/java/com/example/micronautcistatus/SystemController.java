package com.example.micronautcistatus;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Queue, statistics, system info, webhooks and reports. */
@Controller
public class SystemController {

    private final CiStore store;

    public SystemController(CiStore store) {
        this.store = store;
    }

    @Get("/")
    public Map<String, Object> index() {
        return Views.map("service", "micronaut-ci-status", "version", CiStore.VERSION);
    }

    @Get("/queue")
    public List<Map<String, Object>> queue() {
        return store.queue();
    }

    @Get("/statistics/daily")
    public Map<String, Object> daily() {
        return store.dailyStatistics();
    }

    @Get("/system/health")
    public Map<String, Object> health() {
        return Views.map("status", "UP", "db", "UP", "queue", "UP");
    }

    @Get("/system/version")
    public Map<String, Object> version() {
        return Views.map("version", CiStore.VERSION, "buildDate", CiStore.BUILD_DATE);
    }

    @Post("/webhooks/git")
    public HttpResponse<Map<String, Object>> gitWebhook(@Nullable @Body Map<String, Object> body) {
        String ref = Views.str(body, "ref");
        String url = null;
        if (body != null && body.get("repository") instanceof Map<?, ?> repo) {
            Object u = repo.get("url");
            url = u == null ? null : u.toString();
        }
        List<String> builds = store.onPush(ref, url);
        return HttpResponse.ok(Views.map("received", true, "triggeredBuilds", builds));
    }

    @Get("/reports/latest")
    public Map<String, Object> latestReport() {
        Map<String, Long> counts = store.countByStatus();
        long total = counts.values().stream().mapToLong(Long::longValue).sum();
        StringBuilder summary = new StringBuilder();
        summary.append(store.listProjects().size()).append(" projects, ")
                .append(total).append(" builds");
        if (!counts.isEmpty()) {
            summary.append(" (");
            boolean first = true;
            for (Map.Entry<String, Long> e : counts.entrySet()) {
                if (!first) {
                    summary.append(", ");
                }
                summary.append(e.getValue()).append(' ').append(e.getKey());
                first = false;
            }
            summary.append(')');
        }
        summary.append(", ").append(store.queueSize()).append(" queued, ")
                .append(store.listAgents().size()).append(" agents");
        return Views.map("reportId", UUID.randomUUID().toString(), "summary", summary.toString(),
                "generatedAt", CiStore.now());
    }
}
