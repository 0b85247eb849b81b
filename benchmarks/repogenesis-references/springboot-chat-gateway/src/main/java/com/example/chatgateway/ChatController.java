package com.example.chatgateway;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.bind.annotation.*;

import java.util.LinkedHashMap;
import java.util.Map;

@RestController
@RequestMapping("/api")
public class ChatController {
    private final ChatService chat;
    private final String version;
    private final long startedAt = System.currentTimeMillis();

    public ChatController(ChatService chat, @Value("${chat.version:1.0.0}") String version) {
        this.chat = chat;
        this.version = version;
    }

    @PostMapping("/users/register")
    public Map<String, Object> register(@RequestBody Map<String, Object> body) { return chat.register(body); }

    @PostMapping("/users/login")
    public Map<String, Object> login(@RequestBody Map<String, Object> body) { return chat.login(body); }

    @PostMapping("/users/logout")
    public Map<String, Object> logout(@RequestHeader(value = "Authorization", required = false) String auth) {
        String token = auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7) ? auth.substring(7).trim() : auth;
        return chat.logout(token);
    }

    @GetMapping("/users/{userId}/status")
    public Map<String, Object> getStatus(@PathVariable String userId) { return chat.getStatus(userId); }

    @PutMapping("/users/{userId}/status")
    public Map<String, Object> updateStatus(@PathVariable String userId, @RequestBody Map<String, Object> body) {
        return chat.updateStatus(userId, body);
    }

    @PostMapping("/messages/send")
    public Map<String, Object> send(@RequestBody Map<String, Object> body) { return chat.sendPrivate(body); }

    @GetMapping("/messages/history")
    public Map<String, Object> history(@RequestParam String userId1, @RequestParam String userId2,
                                       @RequestParam(required = false) Integer limit,
                                       @RequestParam(required = false) Long before) {
        return chat.history(userId1, userId2, limit, before);
    }

    @PostMapping("/groups/create")
    public Map<String, Object> createGroup(@RequestBody Map<String, Object> body) { return chat.createGroup(body); }

    @PostMapping("/groups/{groupId}/join")
    public Map<String, Object> join(@PathVariable String groupId, @RequestBody Map<String, Object> body) {
        return chat.join(groupId, body);
    }

    @PostMapping("/groups/{groupId}/leave")
    public Map<String, Object> leave(@PathVariable String groupId, @RequestBody Map<String, Object> body) {
        return chat.leave(groupId, body);
    }

    @PostMapping("/groups/{groupId}/messages")
    public Map<String, Object> sendGroup(@PathVariable String groupId, @RequestBody Map<String, Object> body) {
        return chat.sendGroup(groupId, body);
    }

    @GetMapping("/groups/{groupId}/messages")
    public Map<String, Object> groupMessages(@PathVariable String groupId,
                                             @RequestParam(required = false) Integer limit,
                                             @RequestParam(required = false) Long before) {
        return chat.groupMessages(groupId, limit, before);
    }

    @GetMapping("/groups/{groupId}/members")
    public Map<String, Object> members(@PathVariable String groupId) { return chat.members(groupId); }

    @GetMapping("/system/health")
    public Map<String, Object> health() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("status", "UP");
        out.put("uptime", System.currentTimeMillis() - startedAt);
        out.put("version", version);
        return out;
    }
}
