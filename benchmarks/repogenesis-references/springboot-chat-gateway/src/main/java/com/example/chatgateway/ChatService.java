package com.example.chatgateway;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.*;
import java.util.concurrent.atomic.AtomicLong;

/** Users, sessions, presence, private and group messages, all kept in memory. */
@Service
public class ChatService {
    public static final Set<String> STATUSES = Set.of("ONLINE", "OFFLINE", "AWAY");
    public static final Set<String> MESSAGE_TYPES = Set.of("TEXT", "IMAGE", "FILE");
    public static final int DEFAULT_HISTORY_LIMIT = 50;
    public static final int MAX_HISTORY_LIMIT = 500;

    static final class User {
        String userId, username, email, salt, passwordHash, status = "OFFLINE";
        long createdAt, lastActive;
    }

    static final class Session {
        String token, userId;
        long expiresAt;
    }

    static final class Message {
        String messageId, senderId, recipientId, groupId, content, type, status;
        long timestamp;
        long seq;
    }

    static final class Member {
        String userId, role;
        long joinedAt;
    }

    static final class Group {
        String groupId, name, description, creatorId;
        long createdAt;
        final Map<String, Member> members = new LinkedHashMap<>();
    }

    private final Object lock = new Object();
    private final Map<String, User> users = new HashMap<>();
    private final Map<String, String> userIdByName = new HashMap<>();
    private final Map<String, Session> sessions = new HashMap<>();
    private final List<Message> messages = new ArrayList<>();
    private final Map<String, Group> groups = new LinkedHashMap<>();
    private final AtomicLong seq = new AtomicLong();
    private final SecureRandom random = new SecureRandom();
    private final long tokenTtlSeconds;

    public ChatService(@Value("${chat.token-ttl-seconds:3600}") long tokenTtlSeconds) {
        this.tokenTtlSeconds = tokenTtlSeconds;
    }

    private static String text(Map<String, Object> body, String key) {
        Object v = body == null ? null : body.get(key);
        if (v == null) return null;
        if (!(v instanceof String s)) throw ApiException.badRequest(key + " must be a string");
        return s;
    }

    private static String required(Map<String, Object> body, String key) {
        String v = text(body, key);
        if (v == null || v.isBlank()) throw ApiException.badRequest(key + " is required");
        return v;
    }

    private static String newId(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "");
    }

    private String hash(String salt, String password) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(salt.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(md.digest(password.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private User user(String userId) {
        User u = userId == null ? null : users.get(userId);
        if (u == null) throw ApiException.notFound("user " + userId + " not found");
        return u;
    }

    private Group group(String groupId) {
        Group g = groupId == null ? null : groups.get(groupId);
        if (g == null) throw ApiException.notFound("group " + groupId + " not found");
        return g;
    }

    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    // ---------- users ----------
    public Map<String, Object> register(Map<String, Object> body) {
        String username = required(body, "username").trim();
        String password = required(body, "password");
        String email = text(body, "email");
        if (email != null && !email.isBlank() && !email.matches("[^@\\s]+@[^@\\s]+")) {
            throw ApiException.badRequest("email is not valid");
        }
        synchronized (lock) {
            if (userIdByName.containsKey(username.toLowerCase(Locale.ROOT))) {
                throw ApiException.conflict("username " + username + " is already taken");
            }
            User u = new User();
            u.userId = newId("u_");
            u.username = username;
            u.email = email;
            byte[] salt = new byte[16];
            random.nextBytes(salt);
            u.salt = HexFormat.of().formatHex(salt);
            u.passwordHash = hash(u.salt, password);
            u.createdAt = System.currentTimeMillis();
            u.lastActive = u.createdAt;
            users.put(u.userId, u);
            userIdByName.put(username.toLowerCase(Locale.ROOT), u.userId);
            return map("userId", u.userId, "username", u.username, "email", u.email, "createdAt", u.createdAt);
        }
    }

    /** Checks the credentials, opens a session and marks the user ONLINE. */
    public Map<String, Object> login(Map<String, Object> body) {
        String username = required(body, "username").trim();
        String password = required(body, "password");
        synchronized (lock) {
            String id = userIdByName.get(username.toLowerCase(Locale.ROOT));
            User u = id == null ? null : users.get(id);
            if (u == null || !MessageDigest.isEqual(
                    u.passwordHash.getBytes(StandardCharsets.UTF_8),
                    hash(u.salt, password).getBytes(StandardCharsets.UTF_8))) {
                throw ApiException.unauthorized("invalid username or password");
            }
            long now = System.currentTimeMillis();
            sessions.values().removeIf(s -> s.expiresAt < now);
            byte[] raw = new byte[32];
            random.nextBytes(raw);
            Session s = new Session();
            s.token = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
            s.userId = u.userId;
            s.expiresAt = now + tokenTtlSeconds * 1000;
            sessions.put(s.token, s);
            u.status = "ONLINE";
            u.lastActive = now;
            return map("token", s.token, "userId", u.userId, "expiresIn", tokenTtlSeconds);
        }
    }

    /** Ends the session of a token; the user goes OFFLINE when no session of theirs is left. */
    public Map<String, Object> logout(String token) {
        synchronized (lock) {
            Session s = token == null ? null : sessions.remove(token);
            if (s == null) throw ApiException.unauthorized("unknown or expired token");
            User u = users.get(s.userId);
            if (u != null && sessions.values().stream().noneMatch(x -> x.userId.equals(u.userId))) {
                u.status = "OFFLINE";
                u.lastActive = System.currentTimeMillis();
            }
            return map("success", true, "message", "logged out");
        }
    }

    public Map<String, Object> getStatus(String userId) {
        synchronized (lock) {
            User u = user(userId);
            return map("userId", u.userId, "status", u.status, "lastActive", u.lastActive);
        }
    }

    public Map<String, Object> updateStatus(String userId, Map<String, Object> body) {
        String status = required(body, "status").trim().toUpperCase(Locale.ROOT);
        if (!STATUSES.contains(status)) throw ApiException.badRequest("status must be ONLINE, OFFLINE or AWAY");
        synchronized (lock) {
            User u = user(userId);
            long now = System.currentTimeMillis();
            u.status = status;
            u.lastActive = now;
            return map("userId", u.userId, "status", u.status, "updatedAt", now);
        }
    }

    // ---------- private messages ----------
    private String messageType(Map<String, Object> body) {
        String type = text(body, "type");
        type = type == null || type.isBlank() ? "TEXT" : type.trim().toUpperCase(Locale.ROOT);
        if (!MESSAGE_TYPES.contains(type)) throw ApiException.badRequest("type must be TEXT, IMAGE or FILE");
        return type;
    }

    private long nextTimestamp() {
        return System.currentTimeMillis();
    }

    /** Delivered at once when the recipient is ONLINE, otherwise stored as SENT. */
    public Map<String, Object> sendPrivate(Map<String, Object> body) {
        String senderId = required(body, "senderId");
        String recipientId = required(body, "recipientId");
        String content = required(body, "content");
        String type = messageType(body);
        synchronized (lock) {
            User sender = user(senderId);
            User recipient = user(recipientId);
            Message m = new Message();
            m.messageId = newId("m_");
            m.senderId = sender.userId;
            m.recipientId = recipient.userId;
            m.content = content;
            m.type = type;
            m.timestamp = nextTimestamp();
            m.seq = seq.incrementAndGet();
            m.status = "ONLINE".equals(recipient.status) ? "DELIVERED" : "SENT";
            messages.add(m);
            sender.lastActive = m.timestamp;
            return map("messageId", m.messageId, "timestamp", m.timestamp, "status", m.status);
        }
    }

    private static int limit(Integer limit) {
        if (limit == null) return DEFAULT_HISTORY_LIMIT;
        if (limit <= 0) throw ApiException.badRequest("limit must be positive");
        return Math.min(limit, MAX_HISTORY_LIMIT);
    }

    /**
     * The conversation between two users, oldest first: the latest {@code limit} messages sent strictly before
     * {@code before} (epoch ms) when given. Users that never exchanged messages (or unknown ids) give an empty list.
     */
    public Map<String, Object> history(String userId1, String userId2, Integer limit, Long before) {
        int n = limit(limit);
        synchronized (lock) {
            List<Message> selected = messages.stream()
                    .filter(m -> m.groupId == null)
                    .filter(m -> (m.senderId.equals(userId1) && m.recipientId.equals(userId2))
                            || (m.senderId.equals(userId2) && m.recipientId.equals(userId1)))
                    .filter(m -> before == null || m.timestamp < before)
                    .toList();
            List<Message> page = selected.subList(Math.max(0, selected.size() - n), selected.size());
            List<Map<String, Object>> out = new ArrayList<>();
            for (Message m : page) {
                out.add(map("messageId", m.messageId, "senderId", m.senderId, "recipientId", m.recipientId,
                        "content", m.content, "type", m.type, "status", m.status, "timestamp", m.timestamp));
            }
            return map("messages", out);
        }
    }

    // ---------- groups ----------
    public Map<String, Object> createGroup(Map<String, Object> body) {
        String creatorId = required(body, "creatorId");
        String name = required(body, "name").trim();
        String description = text(body, "description");
        synchronized (lock) {
            User creator = user(creatorId);
            Group g = new Group();
            g.groupId = newId("g_");
            g.name = name;
            g.description = description;
            g.creatorId = creator.userId;
            g.createdAt = System.currentTimeMillis();
            Member owner = new Member();
            owner.userId = creator.userId;
            owner.role = "OWNER";
            owner.joinedAt = g.createdAt;
            g.members.put(owner.userId, owner);
            groups.put(g.groupId, g);
            return map("groupId", g.groupId, "name", g.name, "description", g.description,
                    "creatorId", g.creatorId, "createdAt", g.createdAt);
        }
    }

    public Map<String, Object> join(String groupId, Map<String, Object> body) {
        String userId = required(body, "userId");
        synchronized (lock) {
            Group g = group(groupId);
            User u = user(userId);
            if (g.members.containsKey(u.userId)) {
                throw ApiException.conflict("user " + u.userId + " is already a member of group " + g.groupId);
            }
            Member m = new Member();
            m.userId = u.userId;
            m.role = "MEMBER";
            m.joinedAt = System.currentTimeMillis();
            g.members.put(m.userId, m);
            return map("groupId", g.groupId, "userId", m.userId, "role", m.role, "joinedAt", m.joinedAt);
        }
    }

    /** Leaving passes ownership to the longest-standing remaining member when the owner leaves. */
    public Map<String, Object> leave(String groupId, Map<String, Object> body) {
        String userId = required(body, "userId");
        synchronized (lock) {
            Group g = group(groupId);
            Member m = g.members.get(userId);
            if (m == null) throw ApiException.notFound("user " + userId + " is not a member of group " + groupId);
            g.members.remove(userId);
            if ("OWNER".equals(m.role) && !g.members.isEmpty()) {
                g.members.values().iterator().next().role = "OWNER";
            }
            return map("success", true, "message", "user " + userId + " left group " + g.groupId);
        }
    }

    /** Only members may post to a group (403 otherwise). */
    public Map<String, Object> sendGroup(String groupId, Map<String, Object> body) {
        String senderId = required(body, "senderId");
        String content = required(body, "content");
        String type = messageType(body);
        synchronized (lock) {
            Group g = group(groupId);
            User sender = user(senderId);
            if (!g.members.containsKey(sender.userId)) {
                throw ApiException.forbidden("user " + sender.userId + " is not a member of group " + g.groupId);
            }
            Message m = new Message();
            m.messageId = newId("m_");
            m.senderId = sender.userId;
            m.groupId = g.groupId;
            m.content = content;
            m.type = type;
            m.status = "SENT";
            m.timestamp = nextTimestamp();
            m.seq = seq.incrementAndGet();
            messages.add(m);
            sender.lastActive = m.timestamp;
            return map("messageId", m.messageId, "groupId", g.groupId, "timestamp", m.timestamp);
        }
    }

    public Map<String, Object> groupMessages(String groupId, Integer limit, Long before) {
        int n = limit(limit);
        synchronized (lock) {
            Group g = group(groupId);
            List<Message> selected = messages.stream()
                    .filter(m -> g.groupId.equals(m.groupId))
                    .filter(m -> before == null || m.timestamp < before)
                    .toList();
            List<Map<String, Object>> out = new ArrayList<>();
            for (Message m : selected.subList(Math.max(0, selected.size() - n), selected.size())) {
                out.add(map("messageId", m.messageId, "groupId", m.groupId, "senderId", m.senderId,
                        "content", m.content, "type", m.type, "timestamp", m.timestamp));
            }
            return map("groupId", g.groupId, "messages", out);
        }
    }

    public Map<String, Object> members(String groupId) {
        synchronized (lock) {
            Group g = group(groupId);
            List<Map<String, Object>> out = new ArrayList<>();
            for (Member m : g.members.values()) {
                User u = users.get(m.userId);
                out.add(map("userId", m.userId, "username", u == null ? null : u.username, "role", m.role,
                        "joinedAt", m.joinedAt));
            }
            return map("groupId", g.groupId, "members", out);
        }
    }
}
