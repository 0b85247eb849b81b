package com.example.auth;

import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/** In-memory users and sessions. Passwords are stored as salted PBKDF2 hashes; sessions expire. */
public class UserService {

    public static final Duration SESSION_TTL = Duration.ofHours(24);
    private static final int PBKDF2_ITERATIONS = 10_000;

    public static final class User {
        final String userId;
        final String username;
        String email;
        final Instant createdAt;
        byte[] salt;
        byte[] passwordHash;

        User(String userId, String username, String email, Instant createdAt) {
            this.userId = userId;
            this.username = username;
            this.email = email;
            this.createdAt = createdAt;
        }
    }

    private record Session(String userId, Instant expiresAt) {
    }

    private final SecureRandom random = new SecureRandom();
    private final Map<String, User> users = new LinkedHashMap<>();
    private final Map<String, Session> sessions = new HashMap<>();

    public synchronized User register(String username, String email, String password) {
        for (User u : users.values()) {
            if (u.username.equalsIgnoreCase(username)) {
                throw ApiException.badRequest("Username already exists");
            }
        }
        if (emailTaken(email, null)) {
            throw ApiException.badRequest("Email already registered");
        }
        User u = new User(UUID.randomUUID().toString(), username, email, Instant.now().truncatedTo(ChronoUnit.MILLIS));
        setPassword(u, password);
        users.put(u.userId, u);
        return u;
    }

    /** Returns a new session token, or throws 401 "Invalid credentials". */
    public synchronized Map.Entry<String, User> login(String username, String password) {
        for (User u : users.values()) {
            if (u.username.equalsIgnoreCase(username)) {
                if (passwordMatches(u, password)) {
                    String token = newToken();
                    sessions.put(token, new Session(u.userId, Instant.now().plus(SESSION_TTL)));
                    return Map.entry(token, u);
                }
                break;
            }
        }
        throw new ApiException(401, "Invalid credentials");
    }

    /** The user of a valid, unexpired session, or null. */
    public synchronized User userForSession(String token) {
        if (token == null) {
            return null;
        }
        Session s = sessions.get(token);
        if (s == null) {
            return null;
        }
        if (Instant.now().isAfter(s.expiresAt())) {
            sessions.remove(token);
            return null;
        }
        User u = users.get(s.userId());
        if (u == null) {
            sessions.remove(token);
        }
        return u;
    }

    public synchronized void logout(String token) {
        sessions.remove(token);
    }

    public synchronized void updateEmail(User u, String email) {
        if (emailTaken(email, u.userId)) {
            throw ApiException.badRequest("Email already registered");
        }
        u.email = email;
    }

    public synchronized boolean passwordMatches(User u, String password) {
        return MessageDigest.isEqual(u.passwordHash, hash(password, u.salt));
    }

    public synchronized void changePassword(User u, String newPassword) {
        setPassword(u, newPassword);
    }

    /** Deletes the user and ends all of their sessions; false if no such user. */
    public synchronized boolean delete(String userId) {
        if (users.remove(userId) == null) {
            return false;
        }
        sessions.values().removeIf(s -> s.userId().equals(userId));
        return true;
    }

    private boolean emailTaken(String email, String exceptUserId) {
        for (User u : users.values()) {
            if (u.email.equalsIgnoreCase(email) && !u.userId.equals(exceptUserId)) {
                return true;
            }
        }
        return false;
    }

    private void setPassword(User u, String password) {
        byte[] salt = new byte[16];
        random.nextBytes(salt);
        u.salt = salt;
        u.passwordHash = hash(password, salt);
    }

    private String newToken() {
        byte[] b = new byte[32];
        random.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    private static byte[] hash(String password, byte[] salt) {
        try {
            PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, PBKDF2_ITERATIONS, 256);
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
