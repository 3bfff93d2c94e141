package org.metaruntime.eventlog.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;

/**
 * Creates the log's schema on the first connection that reaches the database, whichever needs it first: the
 * constructor, the writer or a query. A log opened while its database is down creates it once the database is back.
 * Thread-safe.
 */
public final class SchemaGate {

    private volatile boolean ready;

    /** Creates what is missing of the schema unless that was done; leaves the connection's auto-commit as it was. */
    public void ensure(Connection connection) throws SQLException {
        if (ready) {
            return;
        }
        synchronized (this) {
            if (ready) {
                return;
            }
            boolean autoCommit = connection.getAutoCommit();
            Schema.create(connection, Dialect.of(connection));
            connection.setAutoCommit(autoCommit);
            ready = true;
        }
    }

    /**
     * Whether {@code e} says the database cannot be reached now (SQLState class {@code 08}, a server that is starting
     * or shutting down), as opposed to a database that answered and refused (credentials, a missing database, an
     * unsupported product).
     */
    public static boolean isOutage(SQLException e) {
        for (SQLException cause = e; cause != null; cause = cause.getNextException()) {
            String state = cause.getSQLState();
            if (cause instanceof SQLTransientConnectionException || cause instanceof SQLNonTransientConnectionException
                    || state != null && (state.startsWith("08") || state.equals("57P03"))) {
                return true;
            }
        }
        return false;
    }
}
