package com.example.micronautcistatus;

import java.util.LinkedHashMap;
import java.util.Map;

/** Converts store records into the JSON shapes of the API. */
final class Views {
    private Views() {
    }

    static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    static Map<String, Object> error(String message) {
        return map("error", message);
    }

    static Map<String, Object> project(CiStore.Project p) {
        return map("id", p.id, "name", p.name, "repoUrl", p.repoUrl, "createdAt", p.createdAt);
    }

    static Map<String, Object> build(CiStore.Build b) {
        return map("id", b.id, "projectId", b.projectId, "status", b.status, "result", b.result,
                "branch", b.branch, "commitHash", b.commitHash, "startTime", b.startTime, "endTime", b.endTime);
    }

    static Map<String, Object> agent(CiStore.Agent a) {
        return map("id", a.id, "name", a.name, "status", a.status, "lastHeartbeat", a.lastHeartbeat,
                "capabilities", a.capabilities);
    }

    static Map<String, Object> user(CiStore.User u) {
        return map("id", u.id, "username", u.username, "email", u.email, "role", u.role);
    }

    static String str(Map<String, Object> body, String key) {
        if (body == null) {
            return null;
        }
        Object v = body.get(key);
        return v == null ? null : v.toString();
    }

    static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
