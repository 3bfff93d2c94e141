package org.metaruntime.eventlog.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.metaruntime.events.EventFilter;
import org.metaruntime.events.EventQuery;
import org.metaruntime.events.MobEventQuery;

/**
 * Turns queries into SQL with bound parameters, the same SQL for every dialect. A query asks for
 * {@code limit + 1} rows: the extra row only tells whether there is a next page.
 */
public final class QueryBuilder {

    /** Inserts one envelope row. */
    public static final String INSERT_EVENT = insertEvents(1);
    /** The parameters of one envelope row. */
    public static final int EVENT_COLUMNS = 10;
    /** Inserts one structural mob event; one already logged (same mob and cursor) is kept as it is. */
    public static final String INSERT_MOB_EVENT = "INSERT INTO mob_event (mob_id, cursor, instance_id, logged_ms,"
            + " timestamp_ms, kind, run_id, envelope) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            + " ON CONFLICT (mob_id, cursor) DO NOTHING";
    /** Raises the head of a sequence by {@code ?}; holds its row lock until the transaction ends. */
    public static final String RAISE_HEAD = "UPDATE event_log_head SET last_seq = last_seq + ? WHERE name = ?";
    /** Reads the head of a sequence. */
    public static final String READ_HEAD = "SELECT last_seq FROM event_log_head WHERE name = ?";
    /** The first row at or after a {@code seq}: columns seq, logged_ms. */
    public static final String ROW_AT_OR_AFTER = "SELECT seq, logged_ms FROM event_log WHERE seq >= ? ORDER BY seq LIMIT 1";
    /** The lowest {@code seq} in the log. */
    public static final String FIRST_SEQ = "SELECT MIN(seq) FROM event_log";
    /** Deletes the mob events logged before {@code ?} ms. */
    public static final String DELETE_OLDER_MOB_EVENTS = "DELETE FROM mob_event WHERE logged_ms < ?";
    /** Deletes the rows whose {@code seq} is at most {@code ?}. */
    public static final String DELETE_EVENTS_UP_TO = "DELETE FROM event_log WHERE seq <= ?";

    private QueryBuilder() {
    }

    /** Inserts {@code rows} envelope rows in one statement (parameters row after row). */
    public static String insertEvents(int rows) {
        StringBuilder sql = new StringBuilder("INSERT INTO event_log (seq, instance_id, logged_ms, event_id, source,"
                + " timestamp_ms, module, agent_id, event_type, envelope) VALUES ");
        for (int i = 0; i < rows; i++) {
            sql.append(i == 0 ? "" : ", ").append("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        }
        return sql.toString();
    }

    /** The statement for one page of {@code query}: columns seq, instance_id, logged_ms, envelope. */
    public static PreparedStatement events(Connection connection, EventQuery query) throws SQLException {
        return eventsSql(query).prepare(connection, "");
    }

    /** The SQL of one page of {@code query} with its parameters (for {@link #events} and for query plans). */
    public static Sql eventsSql(EventQuery query) {
        EventFilter filter = query.filter();
        boolean time = filter.fromMs() > 0 || filter.toMs() < Long.MAX_VALUE;
        boolean filtered = time || filter.source() != null || filter.module() != null || filter.agentId() != null
                || filter.eventType() != null;
        // A filtered page first finds its seqs, then reads only those rows by primary key. The inner select
        // needs nothing but the columns of an index ending in (or ordered by) seq, so it is read from the
        // index entries alone, and a planner that would rather walk the primary key in seq order testing
        // each row (its cost model does not know that a module's entries come in seq order) has no reason to.
        StringBuilder sql = new StringBuilder(filtered
                ? "SELECT seq, instance_id, logged_ms, envelope FROM event_log WHERE seq IN (SELECT seq FROM event_log"
                        + " WHERE seq > ?"
                : "SELECT seq, instance_id, logged_ms, envelope FROM event_log WHERE seq > ?");
        List<Object> args = new ArrayList<>();
        args.add(query.afterSeq());
        equal(sql, args, "source", filter.source());
        equal(sql, args, "module", filter.module());
        equal(sql, args, "agent_id", filter.agentId());
        equal(sql, args, "event_type", filter.eventType());
        if (filter.fromMs() > 0) {
            sql.append(" AND timestamp_ms >= ?");
            args.add(filter.fromMs());
        }
        if (filter.toMs() < Long.MAX_VALUE) {
            sql.append(" AND timestamp_ms <= ?");
            args.add(filter.toMs());
        }
        boolean timeOnly = time && filter.module() == null && filter.agentId() == null && filter.eventType() == null;
        // A time range alone: ordered by an expression, so that the planner reads the range through
        // (timestamp_ms, seq, source) and sorts it, instead of walking the log in seq order looking for the
        // range (timestamps follow seq, which the planner cannot know).
        sql.append(timeOnly ? " ORDER BY seq + 0 LIMIT ?) ORDER BY seq"
                : filtered ? " ORDER BY seq LIMIT ?) ORDER BY seq" : " ORDER BY seq LIMIT ?");
        args.add(query.limit() + 1);
        return new Sql(sql.toString(), args);
    }

    /**
     * A statement's text and parameters (strings, integers and longs).
     *
     * @param text the SQL
     * @param args its parameters, in order
     */
    public record Sql(String text, List<Object> args) {

        /** Validates and copies. */
        public Sql {
            java.util.Objects.requireNonNull(text, "text");
            args = List.copyOf(args);
        }

        /** Prepares {@code prefix + text} on {@code connection} and binds the parameters. */
        public PreparedStatement prepare(Connection connection, String prefix) throws SQLException {
            return bind(connection, prefix + text, args);
        }
    }

    /** The statement for one page of structural mob events: columns cursor, envelope. */
    public static PreparedStatement mobEvents(Connection connection, MobEventQuery query) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT cursor, envelope FROM mob_event WHERE cursor > ?");
        List<Object> args = new ArrayList<>();
        args.add(query.afterCursor());
        equal(sql, args, "mob_id", query.mobId());
        equal(sql, args, "kind", query.kind());
        equal(sql, args, "run_id", query.runId());
        sql.append(" ORDER BY cursor, mob_id LIMIT ?");
        args.add(query.limit() + 1);
        return bind(connection, sql.toString(), args);
    }

    private static void equal(StringBuilder sql, List<Object> args, String column, String value) {
        if (value != null) {
            sql.append(" AND ").append(column).append(" = ?");
            args.add(value);
        }
    }

    private static PreparedStatement bind(Connection connection, String sql, List<Object> args) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        try {
            for (int i = 0; i < args.size(); i++) {
                Object arg = args.get(i);
                if (arg instanceof Long) {
                    statement.setLong(i + 1, (Long) arg);
                } else if (arg instanceof Integer) {
                    statement.setInt(i + 1, (Integer) arg);
                } else {
                    statement.setString(i + 1, (String) arg);
                }
            }
            return statement;
        } catch (SQLException e) {
            statement.close();
            throw e;
        }
    }
}
