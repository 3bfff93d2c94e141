package org.metaruntime.eventlog.internal;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import java.util.Optional;
import org.metaruntime.events.EventLogException;
import org.metaruntime.events.PersistentMetadataStore;

/**
 * A {@link PersistentMetadataStore} in one SQLite file, table {@code meta_metadata}; each {@link #put} is its own
 * fully synced transaction. Thread-safe: one connection behind a monitor.
 */
public final class SqliteMetadataStore implements PersistentMetadataStore {

    private final Connection connection;
    private boolean closed;

    /** Opens (or creates) {@code file}. */
    public SqliteMetadataStore(Path file) {
        try {
            connection = Sqlite.dataSource(file, true).getConnection();
            try (Statement s = connection.createStatement()) {
                s.execute("CREATE TABLE IF NOT EXISTS meta_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
            }
        } catch (SQLException e) {
            throw new EventLogException("could not open the metadata store " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized Optional<String> get(String key) {
        Objects.requireNonNull(key, "key");
        ensureOpen();
        try (PreparedStatement s = connection.prepareStatement("SELECT value FROM meta_metadata WHERE key = ?")) {
            s.setString(1, key);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new EventLogException("could not read metadata " + key + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void put(String key, String value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        ensureOpen();
        try (PreparedStatement s = connection.prepareStatement("INSERT INTO meta_metadata (key, value) VALUES (?, ?)"
                + " ON CONFLICT (key) DO UPDATE SET value = excluded.value")) {
            s.setString(1, key);
            s.setString(2, value);
            s.executeUpdate();
        } catch (SQLException e) {
            throw new EventLogException("could not write metadata " + key + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            ConnectionPool.closeQuietly(connection);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the metadata store is closed");
        }
    }
}
