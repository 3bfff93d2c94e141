package org.metaruntime.eventlog.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The event log's tables and indexes, one schema for every dialect.
 *
 * <ul>
 *   <li>{@code event_log_head}: one row per sequence, the last {@code seq} handed out. A writer raises it in
 *       the transaction that inserts its rows, so the row lock orders commits and {@code seq} follows commit
 *       order even when several runtimes share the log.</li>
 *   <li>{@code event_log}: one row per envelope, the envelope text exactly as written, plus the columns the
 *       filters use. Four indexes besides the table's own key, each ordered by {@code seq} within its leading
 *       column, so a filtered page is an index range read in {@code seq} order that stops after
 *       {@code limit + 1} rows: {@code (module, seq, event_type)} and {@code (agent_id, seq, event_type)}
 *       (partial: only the rows that have one; the event type is read from the index entry, so a module or
 *       agent filtered by type needs no index of its own), {@code (event_type, seq)} and
 *       {@code (timestamp_ms, seq, source)} (a time range is read through it and sorted by {@code seq}; the
 *       source is checked in the index entry, before the row is read). Every index costs each append a B-tree insert, and one whose key does not
 *       grow with {@code seq} (such as {@code (module, event_type, seq)}, hundreds of insertion points) costs
 *       several times one that does. There is no index on {@code logged_ms}: rows are logged in time order, so
 *       retention by age finds its cutoff by a binary search on {@code seq}.</li>
 *   <li>{@code mob_event}: one row per structural mob event, keyed by mob and cursor.</li>
 * </ul>
 */
public final class Schema {

    /** The name of the head row of {@code event_log}. */
    public static final String EVENT_SEQUENCE = "event_log";

    private Schema() {
    }

    /** The DDL, in order; every statement is idempotent. */
    public static List<String> statements(Dialect dialect) {
        return List.of(
                "CREATE TABLE IF NOT EXISTS event_log_head (name VARCHAR(64) PRIMARY KEY, last_seq BIGINT NOT NULL)",
                "INSERT INTO event_log_head (name, last_seq) VALUES ('" + EVENT_SEQUENCE + "', 0)"
                        + " ON CONFLICT (name) DO NOTHING",
                "CREATE TABLE IF NOT EXISTS event_log ("
                        + "seq " + dialect.seqKey() + ", "
                        + "instance_id TEXT NOT NULL, "
                        + "logged_ms BIGINT NOT NULL, "
                        + "event_id TEXT NOT NULL, "
                        + "source TEXT NOT NULL, "
                        + "timestamp_ms BIGINT NOT NULL, "
                        + "module TEXT, "
                        + "agent_id TEXT, "
                        + "event_type TEXT NOT NULL, "
                        + "envelope TEXT NOT NULL)",
                "CREATE INDEX IF NOT EXISTS event_log_by_module ON event_log (module, seq, event_type)"
                        + " WHERE module IS NOT NULL",
                "CREATE INDEX IF NOT EXISTS event_log_by_agent ON event_log (agent_id, seq, event_type)"
                        + " WHERE agent_id IS NOT NULL",
                "CREATE INDEX IF NOT EXISTS event_log_type ON event_log (event_type, seq)",
                "CREATE INDEX IF NOT EXISTS event_log_time ON event_log (timestamp_ms, seq, source)",
                "CREATE TABLE IF NOT EXISTS mob_event ("
                        + "mob_id TEXT NOT NULL, "
                        + "cursor BIGINT NOT NULL, "
                        + "instance_id TEXT NOT NULL, "
                        + "logged_ms BIGINT NOT NULL, "
                        + "timestamp_ms BIGINT NOT NULL, "
                        + "kind TEXT NOT NULL, "
                        + "run_id TEXT, "
                        + "envelope TEXT NOT NULL, "
                        + "PRIMARY KEY (mob_id, cursor))",
                "CREATE INDEX IF NOT EXISTS mob_event_cursor ON mob_event (cursor)",
                "CREATE INDEX IF NOT EXISTS mob_event_logged ON mob_event (logged_ms)");
    }

    /** Creates what is missing, in one transaction; leaves {@code connection} in auto-commit off. */
    public static void create(Connection connection, Dialect dialect) throws SQLException {
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            if (dialect.schemaLock() != null) {
                statement.execute(dialect.schemaLock());
            }
            for (String ddl : statements(dialect)) {
                statement.execute(ddl);
            }
            connection.commit();
        } catch (SQLException e) {
            connection.rollback();
            throw e;
        }
    }
}
