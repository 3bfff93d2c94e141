package org.metaruntime.eventlog.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.metaruntime.eventlog.EventLogOptions;

/**
 * Deletes rows past the retention limits (age of {@code logged_ms}, count of envelope rows), at most once per
 * {@code retentionInterval} of the options' clock. Used by the writer thread only; not thread-safe.
 */
public final class Retention {

    private final EventLogOptions options;
    private long nextMs;

    /** Retention for {@code options}; the first pass is due at once. */
    public Retention(EventLogOptions options) {
        this.options = options;
        this.nextMs = Long.MIN_VALUE;
    }

    /** Whether a limit is set and a pass is due. */
    public boolean due() {
        if (options.retentionMaxAge().isZero() && options.retentionMaxRows() == 0) {
            return false;
        }
        return options.clock().millis() >= nextMs;
    }

    /** One pass, in its own transaction on {@code c} (auto-commit off). */
    public void apply(Connection c) throws SQLException {
        long now = options.clock().millis();
        nextMs = now + options.retentionInterval().toMillis();
        if (!options.retentionMaxAge().isZero()) {
            long cutoff = now - options.retentionMaxAge().toMillis();
            long lastOld = lastSeqLoggedBefore(c, cutoff);
            if (lastOld > 0) {
                try (PreparedStatement delete = c.prepareStatement(QueryBuilder.DELETE_EVENTS_UP_TO)) {
                    delete.setLong(1, lastOld);
                    delete.executeUpdate();
                }
            }
            try (PreparedStatement delete = c.prepareStatement(QueryBuilder.DELETE_OLDER_MOB_EVENTS)) {
                delete.setLong(1, cutoff);
                delete.executeUpdate();
            }
        }
        if (options.retentionMaxRows() > 0) {
            long head = head(c);
            if (head > options.retentionMaxRows()) {
                try (PreparedStatement delete = c.prepareStatement(QueryBuilder.DELETE_EVENTS_UP_TO)) {
                    delete.setLong(1, head - options.retentionMaxRows());
                    delete.executeUpdate();
                }
            }
        }
        c.commit();
    }

    /**
     * The highest {@code seq} logged before {@code cutoffMs}, or 0: a binary search over {@code seq}, since rows
     * are logged in time order (each probe is a primary-key read).
     */
    private static long lastSeqLoggedBefore(Connection c, long cutoffMs) throws SQLException {
        long lo;
        try (PreparedStatement first = c.prepareStatement(QueryBuilder.FIRST_SEQ); ResultSet rs = first.executeQuery()) {
            if (!rs.next() || rs.getObject(1) == null) {
                return 0;
            }
            lo = rs.getLong(1);
        }
        long hi = head(c);
        long found = 0;
        try (PreparedStatement probe = c.prepareStatement(QueryBuilder.ROW_AT_OR_AFTER)) {
            while (lo <= hi) {
                long mid = lo + (hi - lo) / 2;
                probe.setLong(1, mid);
                try (ResultSet rs = probe.executeQuery()) {
                    if (!rs.next()) {
                        hi = mid - 1;
                    } else if (rs.getLong(2) < cutoffMs) {
                        found = rs.getLong(1);
                        lo = rs.getLong(1) + 1;
                    } else {
                        hi = mid - 1;
                    }
                }
            }
        }
        return found;
    }

    private static long head(Connection c) throws SQLException {
        try (PreparedStatement read = c.prepareStatement(QueryBuilder.READ_HEAD)) {
            read.setString(1, Schema.EVENT_SEQUENCE);
            try (ResultSet rs = read.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }
}
