package org.metaruntime.eventlog.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;

/**
 * The few places where SQLite and PostgreSQL differ; everything else (tables, indexes, queries) is the same
 * SQL. Immutable.
 */
public enum Dialect {
    /**
     * SQLite: {@code INTEGER PRIMARY KEY} is the rowid (the table's own B-tree key); rows are inserted one per
     * statement in a JDBC batch, which the driver runs natively in one call.
     */
    SQLITE("INTEGER PRIMARY KEY", null, 1),
    /**
     * PostgreSQL: a transaction-scoped advisory lock serialises schema creation between runtimes starting at
     * the same moment; multi-row inserts.
     */
    POSTGRESQL("BIGINT PRIMARY KEY", "SELECT pg_advisory_xact_lock(7262018455129611)", 128);

    private final String seqKey;
    private final String schemaLock;
    private final int rowsPerInsert;

    Dialect(String seqKey, String schemaLock, int rowsPerInsert) {
        this.seqKey = seqKey;
        this.schemaLock = schemaLock;
        this.rowsPerInsert = rowsPerInsert;
    }

    /**
     * Rows per {@code INSERT} statement: PostgreSQL takes many per statement (one round trip for 128 rows),
     * SQLite one (its driver runs a batch of single-row statements natively).
     */
    public int rowsPerInsert() {
        return rowsPerInsert;
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
