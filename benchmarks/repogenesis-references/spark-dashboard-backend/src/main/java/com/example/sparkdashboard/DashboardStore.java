package com.example.sparkdashboard;

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
import java.util.UUID;

/**
 * In-memory state. Seeded with one account (admin / password, role ADMIN) and one sample data source with a sample
 * dataset, so that a fresh instance can be logged into and queried. Every public method is synchronized.
 */
public class DashboardStore {

    public static final class User {
        String id;
        String username;
        String email;
        String role;
        String salt;
        String passwordHash;
        String updatedAt;
    }

    public static final class Dashboard {
        String id;
        String title;
        String description;
        String createdAt;
        String updatedAt;
    }

    public static final class Widget {
        String id;
        String dashboardId;
        String type;
        String title;
        Map<String, Object> config;
        String createdAt;
        String updatedAt;
    }

    public static final class DataSource {
        String id;
        String name;
        String type;
        Map<String, Object> connectionDetails;
        String createdAt;
    }

    public static final class Dataset {
        String id;
        String name;
        String datasourceId;
        String query;
        List<String> columns;
        List<List<Object>> rows;
    }

    private final SecureRandom random = new SecureRandom();
    private final Map<String, User> users = new LinkedHashMap<>();
    private final Map<String, String> tokens = new LinkedHashMap<>();
    private final Map<String, Dashboard> dashboards = new LinkedHashMap<>();
    private final Map<String, Widget> widgets = new LinkedHashMap<>();
    private final Map<String, DataSource> datasources = new LinkedHashMap<>();
    private final Map<String, Dataset> datasets = new LinkedHashMap<>();

    public DashboardStore() {
        User admin = new User();
        admin.id = UUID.randomUUID().toString();
        admin.username = "admin";
        admin.email = "admin@example.com";
        admin.role = "admin";
        admin.salt = randomToken(16);
        admin.passwordHash = hash(admin.salt, "password");
        admin.updatedAt = now();
        users.put(admin.id, admin);

        DataSource sample = createDataSource("Sample Sales Database", "mock",
                new LinkedHashMap<>(Map.of("url", "mock://sales", "username", "demo")));
        Dataset ds = new Dataset();
        ds.id = UUID.randomUUID().toString();
        ds.name = "Monthly Sales";
        ds.datasourceId = sample.id;
        ds.query = "SELECT month, region, revenue FROM sales";
        ds.columns = List.of("month", "region", "revenue");
        ds.rows = List.of(
                List.of("2024-01", "North", 12000),
                List.of("2024-01", "South", 9500),
                List.of("2024-02", "North", 13400),
                List.of("2024-02", "South", 10100),
                List.of("2024-03", "North", 12800),
                List.of("2024-03", "South", 11250));
        datasets.put(ds.id, ds);
    }

    public static String now() {
        return Instant.now().toString();
    }

    // ---------------------------------------------------------------- users

    public synchronized Map.Entry<String, User> login(String username, String password) {
        for (User u : users.values()) {
            if (u.username.equals(username) && u.passwordHash.equals(hash(u.salt, password))) {
                String token = randomToken(32);
                tokens.put(token, u.id);
                return Map.entry(token, u);
            }
        }
        throw new ApiException(401, "Invalid username or password");
    }

    public synchronized User userForToken(String token) {
        String id = token == null ? null : tokens.get(token);
        return id == null ? null : users.get(id);
    }

    public synchronized User updateUser(User u, String email, String password) {
        if (email != null) {
            u.email = email;
        }
        if (password != null) {
            u.salt = randomToken(16);
            u.passwordHash = hash(u.salt, password);
        }
        u.updatedAt = now();
        return u;
    }

    // ---------------------------------------------------------------- dashboards & widgets

    public synchronized List<Dashboard> dashboards() {
        return new ArrayList<>(dashboards.values());
    }

    public synchronized Dashboard dashboard(String id) {
        Dashboard d = dashboards.get(id);
        if (d == null) {
            throw new ApiException(404, "Dashboard not found");
        }
        return d;
    }

    public synchronized Dashboard createDashboard(String title, String description) {
        Dashboard d = new Dashboard();
        d.id = UUID.randomUUID().toString();
        d.title = title;
        d.description = description;
        d.createdAt = now();
        d.updatedAt = d.createdAt;
        dashboards.put(d.id, d);
        return d;
    }

    public synchronized Dashboard updateDashboard(String id, String title, String description) {
        Dashboard d = dashboard(id);
        if (title != null) {
            d.title = title;
        }
        if (description != null) {
            d.description = description;
        }
        d.updatedAt = now();
        return d;
    }

    public synchronized void deleteDashboard(String id) {
        dashboard(id);
        dashboards.remove(id);
        widgets.values().removeIf(w -> w.dashboardId.equals(id));
    }

    public synchronized List<Widget> widgetsOf(String dashboardId) {
        List<Widget> out = new ArrayList<>();
        for (Widget w : widgets.values()) {
            if (w.dashboardId.equals(dashboardId)) {
                out.add(w);
            }
        }
        return out;
    }

    public synchronized Widget addWidget(String dashboardId, String type, String title, Map<String, Object> config) {
        dashboard(dashboardId);
        Widget w = new Widget();
        w.id = UUID.randomUUID().toString();
        w.dashboardId = dashboardId;
        w.type = type;
        w.title = title;
        w.config = config;
        w.createdAt = now();
        w.updatedAt = w.createdAt;
        widgets.put(w.id, w);
        return w;
    }

    public synchronized Widget widget(String id) {
        Widget w = widgets.get(id);
        if (w == null) {
            throw new ApiException(404, "Widget not found");
        }
        return w;
    }

    public synchronized Widget updateWidget(String id, String type, String title, Map<String, Object> config) {
        Widget w = widget(id);
        if (type != null) {
            w.type = type;
        }
        if (title != null) {
            w.title = title;
        }
        if (config != null) {
            w.config = config;
        }
        w.updatedAt = now();
        return w;
    }

    public synchronized void deleteWidget(String id) {
        widget(id);
        widgets.remove(id);
    }

    // ---------------------------------------------------------------- data sources, datasets, queries

    public synchronized List<DataSource> datasources() {
        return new ArrayList<>(datasources.values());
    }

    public synchronized DataSource createDataSource(String name, String type, Map<String, Object> details) {
        DataSource d = new DataSource();
        d.id = UUID.randomUUID().toString();
        d.name = name;
        d.type = type;
        d.connectionDetails = details;
        d.createdAt = now();
        datasources.put(d.id, d);
        return d;
    }

    public synchronized List<Dataset> datasets() {
        return new ArrayList<>(datasets.values());
    }

    public synchronized Dataset createDataset(String name, String datasourceId, String query) {
        if (!datasources.containsKey(datasourceId)) {
            throw new ApiException(400, "Unknown datasource_id");
        }
        Dataset ds = new Dataset();
        ds.id = UUID.randomUUID().toString();
        ds.name = name;
        ds.datasourceId = datasourceId;
        ds.query = query;
        // data sources are mocked: a user-defined dataset yields a small generated table
        ds.columns = List.of("label", "value");
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            rows.add(List.of("item " + i, i * 10));
        }
        ds.rows = rows;
        datasets.put(ds.id, ds);
        return ds;
    }

    /** Runs a (mocked) query: the dataset's rows, keeping those whose columns equal every given filter value. */
    public synchronized Map<String, Object> query(String datasetId, Map<String, Object> filters) {
        Dataset ds = datasets.get(datasetId);
        if (ds == null) {
            throw new ApiException(404, "Dataset not found");
        }
        for (String key : filters.keySet()) {
            if (!ds.columns.contains(key)) {
                throw new ApiException(400, "Unknown filter column: " + key);
            }
        }
        List<List<Object>> data = new ArrayList<>();
        for (List<Object> row : ds.rows) {
            boolean keep = true;
            for (Map.Entry<String, Object> f : filters.entrySet()) {
                Object cell = row.get(ds.columns.indexOf(f.getKey()));
                if (!String.valueOf(cell).equals(String.valueOf(f.getValue()))) {
                    keep = false;
                    break;
                }
            }
            if (keep) {
                data.add(row);
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("columns", ds.columns);
        out.put("data", data);
        return out;
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
