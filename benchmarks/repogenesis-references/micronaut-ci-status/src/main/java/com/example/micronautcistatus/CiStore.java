package com.example.micronautcistatus;

import jakarta.inject.Singleton;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/** In-memory state of the CI system: projects, builds, agents and users. */
@Singleton
public class CiStore {

    public static final String VERSION = "1.0.0";
    public static final String BUILD_DATE = "2024-01-01T00:00:00Z";

    public static final class Project {
        String id, name, repoUrl, createdAt;
    }

    public static final class Build {
        String id, projectId, branch, commitHash, status, result, startTime, endTime;
        int priority;
        final List<String> logs = new ArrayList<>();
        final List<Map<String, Object>> artifacts = new ArrayList<>();
    }

    public static final class Agent {
        String id, name, status, token, lastHeartbeat, registeredAt;
        List<String> capabilities = new ArrayList<>();
    }

    public static final class User {
        String id, username, email, role;
    }

    private final Map<String, Project> projects = new LinkedHashMap<>();
    private final Map<String, Build> builds = new LinkedHashMap<>();
    private final Map<String, Agent> agents = new LinkedHashMap<>();
    private final Map<String, User> users = new LinkedHashMap<>();
    private final List<String> queue = new ArrayList<>();
    private final AtomicInteger webhooksReceived = new AtomicInteger();

    static String now() {
        return Instant.now().toString();
    }

    static String newId() {
        return UUID.randomUUID().toString();
    }

    // ---- projects ----

    public synchronized List<Project> listProjects() {
        return new ArrayList<>(projects.values());
    }

    public synchronized Project getProject(String id) {
        return projects.get(id);
    }

    public synchronized Project createProject(String name, String repoUrl) {
        Project p = new Project();
        p.id = newId();
        p.name = name;
        p.repoUrl = repoUrl;
        p.createdAt = now();
        projects.put(p.id, p);
        return p;
    }

    public synchronized Project updateProject(String id, String name, String repoUrl) {
        Project p = projects.get(id);
        if (p == null) {
            return null;
        }
        if (name != null) {
            p.name = name;
        }
        if (repoUrl != null) {
            p.repoUrl = repoUrl;
        }
        return p;
    }

    public synchronized boolean deleteProject(String id) {
        if (projects.remove(id) == null) {
            return false;
        }
        List<String> gone = builds.values().stream().filter(b -> id.equals(b.projectId))
                .map(b -> b.id).collect(Collectors.toList());
        gone.forEach(builds::remove);
        queue.removeAll(gone);
        return true;
    }

    // ---- builds ----

    public synchronized Build triggerBuild(String projectId, String branch, String commitHash) {
        if (!projects.containsKey(projectId)) {
            return null;
        }
        Build b = new Build();
        b.id = newId();
        b.projectId = projectId;
        b.branch = branch == null ? "main" : branch;
        b.commitHash = commitHash;
        b.status = "QUEUED";
        b.startTime = now();
        b.priority = 1;
        b.logs.add(b.startTime + " Build " + b.id + " queued for branch " + b.branch
                + (commitHash != null ? " at commit " + commitHash : ""));
        builds.put(b.id, b);
        queue.add(b.id);
        return b;
    }

    public synchronized List<Build> buildsOfProject(String projectId) {
        return builds.values().stream().filter(b -> projectId.equals(b.projectId)).collect(Collectors.toList());
    }

    public synchronized Build getBuild(String id) {
        return builds.get(id);
    }

    /** Cancels a build that has not finished yet; returns null if no such build. */
    public synchronized Build cancelBuild(String id) {
        Build b = builds.get(id);
        if (b == null) {
            return null;
        }
        if (b.status.equals("QUEUED") || b.status.equals("RUNNING")) {
            b.status = "CANCELLED";
            b.result = "CANCELLED";
            b.endTime = now();
            b.logs.add(b.endTime + " Build cancelled");
            queue.remove(id);
        }
        return b;
    }

    public synchronized List<Map<String, Object>> queue() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (String id : queue) {
            Build b = builds.get(id);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("buildId", id);
            m.put("priority", b == null ? 1 : b.priority);
            out.add(m);
        }
        return out;
    }

    public synchronized Collection<Build> allBuilds() {
        return new ArrayList<>(builds.values());
    }

    // ---- agents ----

    public synchronized List<Agent> listAgents() {
        return new ArrayList<>(agents.values());
    }

    public synchronized Agent getAgent(String id) {
        return agents.get(id);
    }

    public synchronized Agent registerAgent(String name, List<String> capabilities) {
        Agent a = new Agent();
        a.id = newId();
        a.name = name;
        a.status = "IDLE";
        a.token = UUID.randomUUID().toString().replace("-", "");
        a.registeredAt = now();
        a.lastHeartbeat = a.registeredAt;
        if (capabilities != null) {
            a.capabilities = new ArrayList<>(capabilities);
        }
        agents.put(a.id, a);
        return a;
    }

    public synchronized Agent updateAgentStatus(String id, String status) {
        Agent a = agents.get(id);
        if (a == null) {
            return null;
        }
        a.status = status;
        a.lastHeartbeat = now();
        return a;
    }

    // ---- users ----

    public synchronized List<User> listUsers() {
        return new ArrayList<>(users.values());
    }

    public synchronized User getUser(String id) {
        return users.get(id);
    }

    public synchronized User createUser(String username, String email, String role) {
        User u = new User();
        u.id = newId();
        u.username = username;
        u.email = email;
        u.role = role == null ? "USER" : role;
        users.put(u.id, u);
        return u;
    }

    // ---- webhooks / statistics ----

    /** Triggers a build for every project whose repoUrl matches; returns the ids of the builds queued. */
    public synchronized List<String> onPush(String ref, String repoUrl) {
        webhooksReceived.incrementAndGet();
        String branch = ref;
        if (branch != null && branch.startsWith("refs/heads/")) {
            branch = branch.substring("refs/heads/".length());
        }
        List<String> triggered = new ArrayList<>();
        if (repoUrl == null) {
            return triggered;
        }
        for (Project p : new ArrayList<>(projects.values())) {
            if (repoUrl.equals(p.repoUrl)) {
                triggered.add(triggerBuild(p.id, branch, null).id);
            }
        }
        return triggered;
    }

    public synchronized Map<String, Object> dailyStatistics() {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        String prefix = today.toString();
        long total = 0, success = 0, finished = 0;
        for (Build b : builds.values()) {
            if (b.startTime != null && b.startTime.startsWith(prefix)) {
                total++;
                if (b.endTime != null) {
                    finished++;
                    if ("SUCCESS".equals(b.status)) {
                        success++;
                    }
                }
            }
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("date", prefix);
        m.put("totalBuilds", total);
        m.put("successRate", finished == 0 ? 0.0 : (double) success / finished);
        return m;
    }

    public synchronized Map<String, Long> countByStatus() {
        return builds.values().stream().collect(Collectors.groupingBy(b -> b.status, LinkedHashMap::new,
                Collectors.counting()));
    }

    public synchronized int queueSize() {
        return queue.size();
    }
}
