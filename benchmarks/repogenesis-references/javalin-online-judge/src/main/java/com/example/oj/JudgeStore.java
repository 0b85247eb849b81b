package com.example.oj;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** In-memory state of the judge. Every public method is synchronized on the store. */
public class JudgeStore {

    /** The reserved username whose account is created with the ADMIN role (the bootstrap administrator). */
    public static final String ADMIN_USERNAME = "admin";

    public enum Role { USER, ADMIN }

    public enum Difficulty { EASY, MEDIUM, HARD }

    public enum Language { JAVA, PYTHON, CPP }

    public enum Status { PENDING, ACCEPTED, WRONG_ANSWER, TLE, MLE }

    public static final class User {
        String id;
        String username;
        String email;
        Role role;
        boolean banned;
        String salt;
        String passwordHash;
    }

    public static final class Problem {
        String id;
        String title;
        String description;
        Difficulty difficulty;
        long timeLimit;
        long memoryLimit;
    }

    public static final class Submission {
        String id;
        String userId;
        String problemId;
        String code;
        Language language;
        Status status;
        long timestamp;
    }

    public static final class Contest {
        String id;
        String title;
        long startTime;
        long endTime;
        List<String> problemIds;
        final Set<String> participants = new LinkedHashSet<>();
    }

    private final SecureRandom random = new SecureRandom();
    private final Map<String, User> users = new LinkedHashMap<>();
    private final Map<String, String> tokens = new LinkedHashMap<>();
    private final Map<String, Problem> problems = new LinkedHashMap<>();
    private final Map<String, Submission> submissions = new LinkedHashMap<>();
    private final Map<String, Contest> contests = new LinkedHashMap<>();

    // ---------------------------------------------------------------- users & auth

    public synchronized User register(String username, String email, String password) {
        for (User u : users.values()) {
            if (u.username.equalsIgnoreCase(username)) {
                throw new ApiException(409, "Username already exists");
            }
            if (u.email.equalsIgnoreCase(email)) {
                throw new ApiException(409, "Email already registered");
            }
        }
        User u = new User();
        u.id = UUID.randomUUID().toString();
        u.username = username;
        u.email = email;
        u.role = ADMIN_USERNAME.equalsIgnoreCase(username) ? Role.ADMIN : Role.USER;
        u.salt = randomToken(16);
        u.passwordHash = hash(u.salt, password);
        users.put(u.id, u);
        return u;
    }

    public synchronized String login(String username, String password) {
        for (User u : users.values()) {
            if (u.username.equalsIgnoreCase(username) && u.passwordHash.equals(hash(u.salt, password))) {
                if (u.banned) {
                    throw new ApiException(403, "User is banned");
                }
                String token = randomToken(32);
                tokens.put(token, u.id);
                return token;
            }
        }
        throw new ApiException(401, "Invalid username or password");
    }

    /** The user a bearer token belongs to, or null. */
    public synchronized User userForToken(String token) {
        if (token == null) {
            return null;
        }
        String id = tokens.get(token);
        return id == null ? null : users.get(id);
    }

    public synchronized User user(String id) {
        User u = users.get(id);
        if (u == null) {
            throw new ApiException(404, "User not found");
        }
        return u;
    }

    public synchronized User updateEmail(String id, String email) {
        User u = user(id);
        if (email != null) {
            for (User other : users.values()) {
                if (other != u && other.email.equalsIgnoreCase(email)) {
                    throw new ApiException(409, "Email already registered");
                }
            }
            u.email = email;
        }
        return u;
    }

    public synchronized User ban(String id) {
        User u = user(id);
        u.banned = true;
        tokens.values().removeIf(uid -> uid.equals(id));
        return u;
    }

    // ---------------------------------------------------------------- problems

    public synchronized List<Problem> problems() {
        return new ArrayList<>(problems.values());
    }

    public synchronized Problem problem(String id) {
        Problem p = problems.get(id);
        if (p == null) {
            throw new ApiException(404, "Problem not found");
        }
        return p;
    }

    public synchronized Problem saveProblem(String id, String title, String description, Difficulty difficulty,
                                            long timeLimit, long memoryLimit) {
        Problem p;
        if (id == null) {
            p = new Problem();
            p.id = UUID.randomUUID().toString();
        } else {
            p = problem(id);
        }
        p.title = title;
        p.description = description;
        p.difficulty = difficulty;
        p.timeLimit = timeLimit;
        p.memoryLimit = memoryLimit;
        problems.put(p.id, p);
        return p;
    }

    public synchronized void deleteProblem(String id) {
        problem(id);
        problems.remove(id);
        for (Contest c : contests.values()) {
            c.problemIds.remove(id);
        }
    }

    // ---------------------------------------------------------------- submissions

    public synchronized Submission submit(String userId, String problemId, String code, Language language) {
        if (!problems.containsKey(problemId)) {
            throw new ApiException(404, "Problem not found");
        }
        Submission s = new Submission();
        s.id = UUID.randomUUID().toString();
        s.userId = userId;
        s.problemId = problemId;
        s.code = code;
        s.language = language;
        s.status = Status.PENDING; // queued for the (external) judge
        s.timestamp = System.currentTimeMillis();
        submissions.put(s.id, s);
        return s;
    }

    public synchronized List<Submission> submissions(String userId, String problemId) {
        List<Submission> out = new ArrayList<>();
        for (Submission s : submissions.values()) {
            if ((userId == null || s.userId.equals(userId)) && (problemId == null || s.problemId.equals(problemId))) {
                out.add(s);
            }
        }
        return out;
    }

    public synchronized Submission submission(String id) {
        Submission s = submissions.get(id);
        if (s == null) {
            throw new ApiException(404, "Submission not found");
        }
        return s;
    }

    // ---------------------------------------------------------------- contests

    public synchronized Contest createContest(String title, long startTime, long endTime, List<String> problemIds) {
        for (String pid : problemIds) {
            if (!problems.containsKey(pid)) {
                throw new ApiException(400, "Unknown problem id: " + pid);
            }
        }
        Contest c = new Contest();
        c.id = UUID.randomUUID().toString();
        c.title = title;
        c.startTime = startTime;
        c.endTime = endTime;
        c.problemIds = new ArrayList<>(new LinkedHashSet<>(problemIds));
        contests.put(c.id, c);
        return c;
    }

    public synchronized List<Contest> contests() {
        return new ArrayList<>(contests.values());
    }

    public synchronized Contest contest(String id) {
        Contest c = contests.get(id);
        if (c == null) {
            throw new ApiException(404, "Contest not found");
        }
        return c;
    }

    public synchronized void join(String contestId, String userId) {
        Contest c = contest(contestId);
        if (System.currentTimeMillis() > c.endTime) {
            throw new ApiException(400, "Contest has already ended");
        }
        c.participants.add(userId);
    }

    /** Participants with their score: the number of contest problems they solved (ACCEPTED) within the contest. */
    public synchronized List<Map<String, Object>> standings(String contestId) {
        Contest c = contest(contestId);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String uid : c.participants) {
            Set<String> solved = new LinkedHashSet<>();
            for (Submission s : submissions.values()) {
                if (s.userId.equals(uid) && s.status == Status.ACCEPTED && c.problemIds.contains(s.problemId)
                        && s.timestamp >= c.startTime && s.timestamp <= c.endTime) {
                    solved.add(s.problemId);
                }
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("userId", uid);
            row.put("score", solved.size());
            rows.add(row);
        }
        rows.sort((a, b) -> Integer.compare((Integer) b.get("score"), (Integer) a.get("score")));
        return rows;
    }

    // ---------------------------------------------------------------- helpers

    private String randomToken(int bytes) {
        byte[] b = new byte[bytes];
        random.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
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
