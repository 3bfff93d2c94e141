package org.metaruntime.gateway.internal.cli;

import java.util.Map;
import javax.sql.DataSource;
import org.metaruntime.eventlog.EventLogOptions;
import org.metaruntime.eventlog.EventLogs;
import org.metaruntime.events.EventLog;
import org.metaruntime.gateway.internal.cluster.StateDatabase;

/**
 * The event log of {@code --state}: {@code DIR/event_log.sqlite3}, or the log in the PostgreSQL database of a
 * {@code jdbc:postgresql://} URL (rows written by this gateway name {@code instanceId}).
 */
final class StateLog {

    private StateLog() {
    }

    /** The database of {@code --state jdbc:postgresql://...}, or null for a directory or no state. */
    static DataSource database(CommandLine line, Map<String, String> env) {
        return line.stateUrl() == null ? null : StateDatabase.dataSource(line.stateUrl(), env);
    }

    /** What {@code --state} names, for messages (a URL without its password). */
    static String describe(CommandLine line) {
        return line.stateUrl() != null ? StateDatabase.redacted(line.stateUrl()) : String.valueOf(line.state());
    }

    /**
     * Opens the log of the command line's state, in {@code database} when given.
     *
     * @throws RuntimeException when it cannot be opened
     */
    static EventLog open(CommandLine line, DataSource database, String instanceId) {
        if (database != null) {
            return EventLogs.jdbc(database, EventLogOptions.builder().instanceId(instanceId).build());
        }
        return EventLogs.persistentState(line.state());
    }
}
