package org.metaruntime.gateway.internal.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The gateway's tasks of a cluster in its shared database ({@code gateway_task}), on the connections the shared
 * sessions keep: the replica running a task's call writes its state and final result, any replica reads them. A
 * finished task is kept for the time to live, judged on the database's clock. Every method throws
 * {@link DatabaseUnreachable} when the database cannot be reached. Thread-safe.
 */
public final class SharedTasks implements TaskStore {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long SCHEMA_LOCK = 7262018455129614L;

    private final SharedSessions connections;
    private final Duration ttl;
    private volatile boolean schemaReady;

    /** Tasks in the database {@code connections} reach, kept for {@code ttl} after they finish. */
    public SharedTasks(SharedSessions connections, Duration ttl) {
        this.connections = Objects.requireNonNull(connections, "connections");
        this.ttl = Objects.requireNonNull(ttl, "ttl");
    }

    @Override
    public void start(String id) {
        run(c -> {
            try (PreparedStatement s = c.prepareStatement("INSERT INTO gateway_task (id, status, created)"
                    + " VALUES (?, ?, now())")) {
                s.setString(1, id);
                s.setString(2, TaskState.WORKING);
                s.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public boolean finish(String id, String status, JsonNode result, JsonNode error) {
        return run(c -> {
            try (PreparedStatement s = c.prepareStatement("UPDATE gateway_task SET status = ?, result = ?, error = ?,"
                    + " finished = now() WHERE id = ? AND finished IS NULL")) {
                s.setString(1, status);
                s.setString(2, result == null ? null : write(result));
                s.setString(3, error == null ? null : write(error));
                s.setString(4, id);
                return s.executeUpdate() == 1;
            }
        });
    }

    @Override
    public Optional<TaskState> get(String id) {
        return run(c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT status, result, error FROM gateway_task"
                    + " WHERE id = ? AND (finished IS NULL OR finished > now() - make_interval(secs => ?))")) {
                s.setString(1, id);
                s.setDouble(2, ttlSeconds());
                try (ResultSet row = s.executeQuery()) {
                    if (!row.next()) {
                        return Optional.empty();
                    }
                    return Optional.of(new TaskState(id, row.getString(1), read(row.getString(2)), read(row.getString(3))));
                }
            }
        });
    }

    @Override
    public int expire() {
        return run(c -> {
            try (PreparedStatement s = c.prepareStatement("DELETE FROM gateway_task"
                    + " WHERE finished <= now() - make_interval(secs => ?)")) {
                s.setDouble(1, ttlSeconds());
                return s.executeUpdate();
            }
        });
    }

    private double ttlSeconds() {
        return ttl.toMillis() / 1000.0;
    }

    private <T> T run(SharedSessions.Work<T> work) {
        return connections.run(c -> {
            if (!schemaReady) {
                createSchema(c);
                schemaReady = true;
            }
            return work.run(c);
        });
    }

    private static void createSchema(Connection c) throws SQLException {
        StateDatabase.createTable(c, SCHEMA_LOCK, "CREATE TABLE IF NOT EXISTS gateway_task (id TEXT PRIMARY KEY,"
                + " status TEXT NOT NULL, result TEXT, error TEXT, created TIMESTAMPTZ NOT NULL, finished TIMESTAMPTZ)");
    }

    private static String write(JsonNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static JsonNode read(String text) {
        if (text == null) {
            return null;
        }
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
