package org.metaruntime.eventlog.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * Keeps a few idle reader connections of a {@link DataSource} so that a query does not pay for a new
 * connection (a host's pooling data source makes this cheap either way). Thread-safe.
 */
public final class ConnectionPool implements AutoCloseable {

    private final DataSource dataSource;
    private final int maxIdle;
    private final ArrayDeque<Connection> idle = new ArrayDeque<>();
    private boolean closed;

    /** A pool over {@code dataSource} keeping at most {@code maxIdle} idle connections. */
    public ConnectionPool(DataSource dataSource, int maxIdle) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.maxIdle = maxIdle;
    }

    /** An idle connection, or a new one; in auto-commit mode. */
    public Connection borrow() throws SQLException {
        Connection connection;
        synchronized (idle) {
            if (closed) {
                throw new SQLException("the event log is closed");
            }
            connection = idle.poll();
        }
        if (connection == null) {
            connection = dataSource.getConnection();
        }
        if (!connection.getAutoCommit()) {
            connection.setAutoCommit(true);
        }
        return connection;
    }

    /** Takes {@code connection} back; {@code healthy} false closes it. */
    public void release(Connection connection, boolean healthy) {
        if (healthy) {
            synchronized (idle) {
                if (!closed && idle.size() < maxIdle) {
                    idle.push(connection);
                    return;
                }
            }
        }
        closeQuietly(connection);
    }

    /** Closes the idle connections; borrowing then fails. Idempotent. */
    @Override
    public void close() {
        synchronized (idle) {
            closed = true;
            for (Connection connection : idle) {
                closeQuietly(connection);
            }
            idle.clear();
        }
    }

    /** Closes {@code connection}, ignoring failures. */
    public static void closeQuietly(AutoCloseable connection) {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (Exception ignored) {
            // Nothing to do: the connection is being discarded.
        }
    }
}
