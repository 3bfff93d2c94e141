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
            for (String sql : new String[] {QueryBuilder.DELETE_OLDER_EVENTS, QueryBuilder.DELETE_OLDER_MOB_EVENTS}) {
                try (PreparedStatement delete = c.prepareStatement(sql)) {
                    delete.setLong(1, cutoff);
                    delete.executeUpdate();
                }
            }
        }
        if (options.retentionMaxRows() > 0) {
            long head;
            try (PreparedStatement read = c.prepareStatement(QueryBuilder.READ_HEAD)) {
                read.setString(1, Schema.EVENT_SEQUENCE);
                try (ResultSet rs = read.executeQuery()) {
                    head = rs.next() ? rs.getLong(1) : 0;
                }
            }
            if (head > options.retentionMaxRows()) {
                try (PreparedStatement delete = c.prepareStatement(QueryBuilder.DELETE_EVENTS_UP_TO)) {
                    delete.setLong(1, head - options.retentionMaxRows());
                    delete.executeUpdate();
                }
            }
        }
        c.commit();
    }
}
