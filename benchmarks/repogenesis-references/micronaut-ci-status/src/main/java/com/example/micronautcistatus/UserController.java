package com.example.micronautcistatus;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

@Controller("/users")
public class UserController {

    private final CiStore store;

    public UserController(CiStore store) {
        this.store = store;
    }

    @Get
    public List<Map<String, Object>> list() {
        return store.listUsers().stream()
                .map(u -> Views.map("id", u.id, "username", u.username, "role", u.role))
                .collect(Collectors.toList());
    }

    @Post
    public HttpResponse<Map<String, Object>> create(@Nullable @Body Map<String, Object> body) {
        String username = Views.str(body, "username");
        if (Views.blank(username)) {
            return HttpResponse.badRequest(Views.error("username is required"));
        }
        CiStore.User u = store.createUser(username, Views.str(body, "email"), Views.str(body, "role"));
        return HttpResponse.created(Views.map("id", u.id, "username", u.username));
    }

    @Get("/{id}")
    public HttpResponse<Map<String, Object>> get(String id) {
        CiStore.User u = store.getUser(id);
        return u == null ? HttpResponse.notFound(Views.error("user not found")) : HttpResponse.ok(Views.user(u));
    }
}
