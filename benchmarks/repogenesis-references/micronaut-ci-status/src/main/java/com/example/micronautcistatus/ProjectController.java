package com.example.micronautcistatus;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import io.micronaut.core.annotation.Nullable;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

@Controller("/projects")
public class ProjectController {

    private final CiStore store;

    public ProjectController(CiStore store) {
        this.store = store;
    }

    @Get
    public List<Map<String, Object>> list() {
        return store.listProjects().stream()
                .map(p -> Views.map("id", p.id, "name", p.name, "repoUrl", p.repoUrl))
                .collect(Collectors.toList());
    }

    @Post
    public HttpResponse<Map<String, Object>> create(@Nullable @Body Map<String, Object> body) {
        String name = Views.str(body, "name");
        if (Views.blank(name)) {
            return HttpResponse.badRequest(Views.error("name is required"));
        }
        CiStore.Project p = store.createProject(name, Views.str(body, "repoUrl"));
        return HttpResponse.created(Views.map("id", p.id, "name", p.name, "repoUrl", p.repoUrl));
    }

    @Get("/{id}")
    public HttpResponse<Map<String, Object>> get(String id) {
        CiStore.Project p = store.getProject(id);
        return p == null ? HttpResponse.notFound(Views.error("project not found"))
                : HttpResponse.ok(Views.project(p));
    }

    @Put("/{id}")
    public HttpResponse<Map<String, Object>> update(String id, @Nullable @Body Map<String, Object> body) {
        CiStore.Project p = store.updateProject(id, Views.str(body, "name"), Views.str(body, "repoUrl"));
        return p == null ? HttpResponse.notFound(Views.error("project not found"))
                : HttpResponse.ok(Views.map("id", p.id, "name", p.name, "repoUrl", p.repoUrl));
    }

    @Delete("/{id}")
    public HttpResponse<Object> delete(String id) {
        return store.deleteProject(id) ? HttpResponse.noContent()
                : HttpResponse.notFound(Views.error("project not found"));
    }

    @Post("/{id}/builds")
    public HttpResponse<Map<String, Object>> trigger(String id, @Nullable @Body Map<String, Object> body) {
        CiStore.Build b = store.triggerBuild(id, Views.str(body, "branch"), Views.str(body, "commitHash"));
        return b == null ? HttpResponse.notFound(Views.error("project not found"))
                : HttpResponse.created(Views.map("id", b.id, "projectId", b.projectId, "status", b.status));
    }

    @Get("/{id}/builds")
    public HttpResponse<List<Map<String, Object>>> builds(String id) {
        if (store.getProject(id) == null) {
            return HttpResponse.notFound();
        }
        return HttpResponse.ok(store.buildsOfProject(id).stream()
                .map(b -> Views.map("id", b.id, "status", b.status, "startTime", b.startTime))
                .collect(Collectors.toList()));
    }
}
