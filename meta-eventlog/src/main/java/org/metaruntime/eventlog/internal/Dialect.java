package org.metaruntime.eventlog.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;

/**
 * The few places where SQLite and PostgreSQL differ; everything else (tables, indexes, queries) is the same
 * SQL. Immutable.
 */
public enum Dialect {
    /** SQLite: {@code INTEGER PRIMARY KEY} is the rowid (the table's own B-tree key). */
    SQLITE("INTEGER PRIMARY KEY", null),
    /**
     * PostgreSQL: a transaction-scoped advisory lock serialises schema creation between runtimes starting at
     * the same moment.
     */
    POSTGRESQL("BIGINT PRIMARY KEY", "SELECT pg_advisory_xact_lock(7262018455129611)");

    private final String seqKey;
    private final String schemaLock;

    Dialect(String seqKey, String schemaLock) {
        this.seqKey = seqKey;
        this.schemaLock = schemaLock;
    }

    /** The column type of a 64-bit primary key. */
    public String seqKey() {
        return seqKey;
    }

    /** A statement that serialises schema creation in its transaction, or null when none is needed. */
    public String schemaLock() {
        return schemaLock;
    }

    /**
     * The dialect of {@code connection}'s database.
     *
     * @throws SQLException when the database is neither SQLite nor PostgreSQL
     */
    public static Dialect of(Connection connection) throws SQLException {
        String product = connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
        if (product.contains("sqlite")) {
            return SQLITE;
        }
        if (product.contains("postgres")) {
            return POSTGRESQL;
        }
        throw new SQLException("the event log supports SQLite and PostgreSQL, not " + product);
    }
}
