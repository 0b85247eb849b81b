package com.example.javalintaskmanager;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** In-memory data store. All public methods are synchronized on the store. */
public class Store {

    public static final class User {
        int id;
        String username;
        String email;
        String salt;
        String passwordHash;
    }

    public static final class Project {
        int id;
        String name;
        String description;
        int ownerId;
    }

    public static final class Task {
        int id;
        String title;
        String description;
        String status;
        int projectId;
        Integer assigneeId;
    }

    public static final class Comment {
        int id;
        String content;
        int taskId;
        int authorId;
        String createdAt;
    }

    private final SecureRandom random = new SecureRandom();
    private final Map<Integer, User> users = new LinkedHashMap<>();
    private final Map<Integer, Project> projects = new LinkedHashMap<>();
    private final Map<Integer, Task> tasks = new LinkedHashMap<>();
    private final Map<Integer, Comment> comments = new LinkedHashMap<>();
    private final Map<String, Integer> tokens = new LinkedHashMap<>();
    private int nextUserId = 1;
    private int nextProjectId = 1;
    private int nextTaskId = 1;
    private int nextCommentId = 1;

    // ---------------------------------------------------------------- users

    public synchronized User register(String username, String email, String password) {
        for (User u : users.values()) {
            if (u.username.equalsIgnoreCase(username)) {
                throw new ApiException(409, "Username already taken");
            }
            if (u.email.equalsIgnoreCase(email)) {
                throw new ApiException(409, "Email already registered");
            }
        }
        User u = new User();
        u.id = nextUserId++;
        u.username = username;
        u.email = email;
        u.salt = randomHex(16);
        u.passwordHash = hash(u.salt, password);
        users.put(u.id, u);
        return u;
    }

    public synchronized String login(String email, String password) {
        for (User u : users.values()) {
            if (u.email.equalsIgnoreCase(email) && u.passwordHash.equals(hash(u.salt, password))) {
                byte[] b = new byte[32];
                random.nextBytes(b);
                String token = Base64.getUrlEncoder().withoutPadding().encodeToString(b);
                tokens.put(token, u.id);
                return token;
            }
        }
        throw new ApiException(401, "Invalid email or password");
    }

    public synchronized Integer userForToken(String token) {
        return token == null ? null : tokens.get(token);
    }

    public synchronized User user(int id) {
        User u = users.get(id);
        if (u == null) {
            throw new ApiException(404, "User not found");
        }
        return u;
    }

    public synchronized boolean userExists(int id) {
        return users.containsKey(id);
    }

    // ---------------------------------------------------------------- projects

    public synchronized List<Project> projects() {
        return new ArrayList<>(projects.values());
    }

    public synchronized Project project(int id) {
        Project p = projects.get(id);
        if (p == null) {
            throw new ApiException(404, "Project not found");
        }
        return p;
    }

    public synchronized Project createProject(String name, String description, int ownerId) {
        Project p = new Project();
        p.id = nextProjectId++;
        p.name = name;
        p.description = description;
        p.ownerId = ownerId;
        projects.put(p.id, p);
        return p;
    }

    public synchronized Project updateProject(int id, String name, String description, int userId) {
        Project p = ownedProject(id, userId);
        if (name != null) {
            p.name = name;
        }
        if (description != null) {
            p.description = description;
        }
        return p;
    }

    public synchronized void deleteProject(int id, int userId) {
        ownedProject(id, userId);
        projects.remove(id);
        List<Integer> taskIds = new ArrayList<>();
        for (Task t : tasks.values()) {
            if (t.projectId == id) {
                taskIds.add(t.id);
            }
        }
        for (int taskId : taskIds) {
            removeTask(taskId);
        }
    }

    private Project ownedProject(int id, int userId) {
        Project p = project(id);
        if (p.ownerId != userId) {
            throw new ApiException(403, "Only the project owner may modify this project");
        }
        return p;
    }

    // ---------------------------------------------------------------- tasks

    public synchronized List<Task> tasksOfProject(int projectId) {
        project(projectId);
        List<Task> out = new ArrayList<>();
        for (Task t : tasks.values()) {
            if (t.projectId == projectId) {
                out.add(t);
            }
        }
        return out;
    }

    public synchronized List<Task> tasksOfAssignee(int userId) {
        user(userId);
        List<Task> out = new ArrayList<>();
        for (Task t : tasks.values()) {
            if (t.assigneeId != null && t.assigneeId == userId) {
                out.add(t);
            }
        }
        return out;
    }

    public synchronized Task task(int id) {
        Task t = tasks.get(id);
        if (t == null) {
            throw new ApiException(404, "Task not found");
        }
        return t;
    }

    public synchronized Task createTask(int projectId, String title, String description, Integer assigneeId) {
        project(projectId);
        checkAssignee(assigneeId);
        Task t = new Task();
        t.id = nextTaskId++;
        t.title = title;
        t.description = description;
        t.status = "TODO";
        t.projectId = projectId;
        t.assigneeId = assigneeId;
        tasks.put(t.id, t);
        return t;
    }

    public synchronized Task updateTask(int id, String title, String description, String status,
                                        Integer assigneeId, boolean assigneeGiven) {
        Task t = task(id);
        if (assigneeGiven) {
            checkAssignee(assigneeId);
            t.assigneeId = assigneeId;
        }
        if (title != null) {
            t.title = title;
        }
        if (description != null) {
            t.description = description;
        }
        if (status != null) {
            t.status = status;
        }
        return t;
    }

    public synchronized void deleteTask(int id) {
        task(id);
        removeTask(id);
    }

    private void removeTask(int id) {
        tasks.remove(id);
        comments.values().removeIf(c -> c.taskId == id);
    }

    private void checkAssignee(Integer assigneeId) {
        if (assigneeId != null && !users.containsKey(assigneeId)) {
            throw new ApiException(400, "Assignee does not exist");
        }
    }

    // ---------------------------------------------------------------- comments

    public synchronized Comment addComment(int taskId, String content, int authorId) {
        task(taskId);
        Comment c = new Comment();
        c.id = nextCommentId++;
        c.content = content;
        c.taskId = taskId;
        c.authorId = authorId;
        c.createdAt = Instant.now().toString();
        comments.put(c.id, c);
        return c;
    }

    public synchronized List<Comment> comments(int taskId) {
        task(taskId);
        List<Comment> out = new ArrayList<>();
        for (Comment c : comments.values()) {
            if (c.taskId == taskId) {
                out.add(c);
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- helpers

    private String randomHex(int bytes) {
        byte[] b = new byte[bytes];
        random.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    private static String hash(String salt, String password) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(md.digest((salt + ":" + password).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
