package com.example.sparkdashboard;

import com.example.sparkdashboard.DashboardStore.Dashboard;
import com.example.sparkdashboard.DashboardStore.DataSource;
import com.example.sparkdashboard.DashboardStore.Dataset;
import com.example.sparkdashboard.DashboardStore.User;
import com.example.sparkdashboard.DashboardStore.Widget;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import spark.Request;
import spark.Spark;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Routes of the dashboard backend, registered on Spark's static instance. */
public class DashboardApi {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final DashboardStore store;

    public DashboardApi(DashboardStore store) {
        this.store = store;
    }

    public void register() {
        Spark.exception(ApiException.class, (e, req, res) -> {
            res.status(e.status());
            res.type("application/json");
            res.body(toJson(Map.of("error", e.getMessage())));
        });
        Spark.exception(Exception.class, (e, req, res) -> {
            res.status(500);
            res.type("application/json");
            res.body(toJson(Map.of("error", "Internal server error")));
        });
        Spark.notFound((req, res) -> {
            res.type("application/json");
            return toJson(Map.of("error", "Not found"));
        });
        Spark.after((req, res) -> res.type("application/json"));

        Spark.get("/", (req, res) -> toJson(Map.of("service", "spark-dashboard-backend", "status", "ok")));

        Spark.post("/api/login", (req, res) -> {
            Map<String, Object> body = body(req);
            String username = string(body, "username", true);
            String password = string(body, "password", true);
            Map.Entry<String, User> session = store.login(username, password);
            Map<String, Object> user = new LinkedHashMap<>();
            user.put("id", session.getValue().id);
            user.put("username", session.getValue().username);
            user.put("email", session.getValue().email);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("token", session.getKey());
            out.put("user", user);
            return toJson(out);
        });

        // dashboards
        Spark.get("/api/dashboards", (req, res) -> {
            List<Object> out = new ArrayList<>();
            for (Dashboard d : store.dashboards()) {
                out.add(dashboard(d, false));
            }
            return toJson(out);
        });
        Spark.post("/api/dashboards", (req, res) -> {
            Map<String, Object> body = body(req);
            String title = string(body, "title", true);
            String description = string(body, "description", false);
            res.status(201);
            return toJson(dashboard(store.createDashboard(title, description == null ? "" : description), false));
        });
        Spark.get("/api/dashboards/:id", (req, res) -> toJson(dashboard(store.dashboard(req.params(":id")), true)));
        Spark.put("/api/dashboards/:id", (req, res) -> {
            Map<String, Object> body = body(req);
            String title = string(body, "title", false);
            if (title != null && title.isBlank()) {
                throw new ApiException(400, "title must not be empty");
            }
            Dashboard d = store.updateDashboard(req.params(":id"), title, string(body, "description", false));
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("id", d.id);
            out.put("title", d.title);
            out.put("description", d.description);
            out.put("updated_at", d.updatedAt);
            return toJson(out);
        });
        Spark.delete("/api/dashboards/:id", (req, res) -> {
            store.deleteDashboard(req.params(":id"));
            return toJson(Map.of("message", "Dashboard deleted successfully"));
        });

        // widgets
        Spark.post("/api/dashboards/:id/widgets", (req, res) -> {
            Map<String, Object> body = body(req);
            String type = string(body, "type", true);
            String title = string(body, "title", true);
            Map<String, Object> config = object(body, "config");
            Widget w = store.addWidget(req.params(":id"), type, title, config == null ? new LinkedHashMap<>() : config);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("id", w.id);
            out.put("dashboard_id", w.dashboardId);
            out.put("type", w.type);
            out.put("title", w.title);
            out.put("config", w.config);
            out.put("created_at", w.createdAt);
            res.status(201);
            return toJson(out);
        });
        Spark.put("/api/widgets/:id", (req, res) -> {
            Map<String, Object> body = body(req);
            String title = string(body, "title", false);
            if (title != null && title.isBlank()) {
                throw new ApiException(400, "title must not be empty");
            }
            String type = string(body, "type", false);
            if (type != null && type.isBlank()) {
                throw new ApiException(400, "type must not be empty");
            }
            Widget w = store.updateWidget(req.params(":id"), type, title, object(body, "config"));
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("id", w.id);
            out.put("dashboard_id", w.dashboardId);
            out.put("type", w.type);
            out.put("title", w.title);
            out.put("config", w.config);
            out.put("updated_at", w.updatedAt);
            return toJson(out);
        });
        Spark.delete("/api/widgets/:id", (req, res) -> {
            store.deleteWidget(req.params(":id"));
            return toJson(Map.of("message", "Widget deleted successfully"));
        });

        // data sources & datasets
        Spark.get("/api/datasources", (req, res) -> {
            List<Object> out = new ArrayList<>();
            for (DataSource d : store.datasources()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("id", d.id);
                m.put("name", d.name);
                m.put("type", d.type);
                m.put("connection_details", d.connectionDetails);
                m.put("created_at", d.createdAt);
                out.add(m);
            }
            return toJson(out);
        });
        Spark.post("/api/datasources", (req, res) -> {
            Map<String, Object> body = body(req);
            String name = string(body, "name", true);
            String type = string(body, "type", true);
            Map<String, Object> details = object(body, "connection_details");
            DataSource d = store.createDataSource(name, type, details == null ? new LinkedHashMap<>() : details);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("id", d.id);
            out.put("name", d.name);
            out.put("type", d.type);
            out.put("created_at", d.createdAt);
            res.status(201);
            return toJson(out);
        });
        Spark.get("/api/datasets", (req, res) -> {
            List<Object> out = new ArrayList<>();
            for (Dataset ds : store.datasets()) {
                out.add(dataset(ds));
            }
            return toJson(out);
        });
        Spark.post("/api/datasets", (req, res) -> {
            Map<String, Object> body = body(req);
            String name = string(body, "name", true);
            String datasourceId = string(body, "datasource_id", true);
            String query = string(body, "query", false);
            res.status(201);
            return toJson(dataset(store.createDataset(name, datasourceId, query == null ? "" : query)));
        });
        Spark.post("/api/query", (req, res) -> {
            Map<String, Object> body = body(req);
            String datasetId = string(body, "dataset_id", true);
            Map<String, Object> filters = object(body, "filters");
            return toJson(store.query(datasetId, filters == null ? Map.of() : filters));
        });

        // current user
        Spark.get("/api/users/me", (req, res) -> toJson(me(currentUser(req))));
        Spark.put("/api/users/me", (req, res) -> {
            User u = currentUser(req);
            Map<String, Object> body = body(req);
            String email = string(body, "email", false);
            if (email != null && !email.trim().matches("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$")) {
                throw new ApiException(400, "email is not a valid email address");
            }
            String password = string(body, "password", false);
            if (password != null && password.isEmpty()) {
                throw new ApiException(400, "password must not be empty");
            }
            store.updateUser(u, email == null ? null : email.trim(), password);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("id", u.id);
            out.put("username", u.username);
            out.put("email", u.email);
            out.put("updated_at", u.updatedAt);
            return toJson(out);
        });
    }

    // ---------------------------------------------------------------- views

    private Map<String, Object> dashboard(Dashboard d, boolean withWidgets) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", d.id);
        m.put("title", d.title);
        m.put("description", d.description);
        if (withWidgets) {
            List<Object> ws = new ArrayList<>();
            for (Widget w : store.widgetsOf(d.id)) {
                Map<String, Object> wm = new LinkedHashMap<>();
                wm.put("id", w.id);
                wm.put("type", w.type);
                wm.put("title", w.title);
                wm.put("config", w.config);
                ws.add(wm);
            }
            m.put("widgets", ws);
        }
        m.put("created_at", d.createdAt);
        m.put("updated_at", d.updatedAt);
        return m;
    }

    private static Map<String, Object> dataset(Dataset ds) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", ds.id);
        m.put("name", ds.name);
        m.put("datasource_id", ds.datasourceId);
        m.put("query", ds.query);
        return m;
    }

    private static Map<String, Object> me(User u) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", u.id);
        m.put("username", u.username);
        m.put("email", u.email);
        m.put("role", u.role);
        return m;
    }

    private User currentUser(Request req) {
        String header = req.headers("Authorization");
        String token = null;
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            token = header.substring(7).trim();
        }
        User u = store.userForToken(token);
        if (u == null) {
            throw new ApiException(401, "Missing or invalid token");
        }
        return u;
    }

    // ---------------------------------------------------------------- JSON helpers

    private static String toJson(Object o) {
        try {
            return MAPPER.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> body(Request req) {
        String raw = req.body();
        if (raw == null || raw.isBlank()) {
            throw new ApiException(400, "Request body must be a JSON object");
        }
        Object parsed;
        try {
            parsed = MAPPER.readValue(raw, Object.class);
        } catch (Exception e) {
            throw new ApiException(400, "Malformed JSON body");
        }
        if (!(parsed instanceof Map)) {
            throw new ApiException(400, "Request body must be a JSON object");
        }
        return (Map<String, Object>) parsed;
    }

    private static String string(Map<String, Object> body, String key, boolean required) {
        Object v = body.get(key);
        if (v == null) {
            if (required) {
                throw new ApiException(400, key + " is required");
            }
            return null;
        }
        if (!(v instanceof String s)) {
            throw new ApiException(400, key + " must be a string");
        }
        if (required && s.isBlank()) {
            throw new ApiException(400, key + " must not be empty");
        }
        return s;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Map<String, Object> body, String key) {
        Object v = body.get(key);
        if (v == null) {
            return null;
        }
        if (!(v instanceof Map)) {
            throw new ApiException(400, key + " must be an object");
        }
        return new LinkedHashMap<>((Map<String, Object>) v);
    }

}
