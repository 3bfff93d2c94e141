package org.metaruntime.eventlog;

import java.nio.file.Path;
import java.util.Objects;
import javax.sql.DataSource;
import org.metaruntime.eventlog.internal.JdbcEventLog;
import org.metaruntime.eventlog.internal.Sqlite;
import org.metaruntime.events.EventLog;

/**
 * Opens {@link EventLog}s: the embedded default (SQLite, one file, WAL) and any JDBC data source of SQLite or
 * PostgreSQL (several runtimes may share one PostgreSQL log; each row names the instance that wrote it).
 * Both use the same schema and the same queries.
 *
 * <p>What the logs cost and guarantee: appends never block (one writer thread, group commit, a bounded
 * queue); after a crash of the process every committed row is there and the file is intact (SQLite syncs
 * its WAL at checkpoints, not at every commit, so a power loss may lose the last commits but never corrupts
 * the file). Thread-safe.
 *
 * <p>The SQLite logs need SQLite's driver, {@code org.xerial:sqlite-jdbc}, which this artifact leaves to the host
 * (an optional dependency): without it {@link #persistentState} and {@link #sqlite} throw an
 * {@link org.metaruntime.events.EventLogException} that names it. {@link #jdbc} needs only the host's own driver.
 *
 * <pre>{@code
 * try (EventLog log = EventLogs.persistentState(Path.of("/var/lib/app/meta"))) {   // event_log.sqlite3
 *     log.append(envelope);
 * }
 * PGSimpleDataSource pg = new PGSimpleDataSource();
 * pg.setUrl("jdbc:postgresql://db:5432/meta");
 * try (EventLog shared = EventLogs.jdbc(pg, EventLogOptions.builder().instanceId("gw-1").build())) {
 *     EventPage page = shared.query(EventQuery.builder().agentId("a1").build());
 * }
 * }</pre>
 */
public final class EventLogs {

    /** The file name of the embedded log in a state directory. */
    public static final String EVENT_LOG_FILE = "event_log.sqlite3";

    private EventLogs() {
    }

    /** The embedded log in {@code <dir>/event_log.sqlite3}, with the default options. */
    public static EventLog persistentState(Path dir) {
        return sqlite(Objects.requireNonNull(dir, "dir").resolve(EVENT_LOG_FILE), EventLogOptions.defaults());
    }

    /** The embedded log in {@code <dir>/event_log.sqlite3}. */
    public static EventLog persistentState(Path dir, EventLogOptions options) {
        return sqlite(Objects.requireNonNull(dir, "dir").resolve(EVENT_LOG_FILE), options);
    }

    /**
     * A SQLite log in {@code file} (created with its directory when missing).
     *
     * @throws org.metaruntime.events.EventLogException when the file cannot be opened, or SQLite's driver
     *                                                  ({@code org.xerial:sqlite-jdbc}) is not on the class path
     */
    public static EventLog sqlite(Path file, EventLogOptions options) {
        return new JdbcEventLog(Sqlite.dataSource(Objects.requireNonNull(file, "file"), false), options);
    }

    /** A log in the database of {@code dataSource} (PostgreSQL or SQLite), with the default options. */
    public static EventLog jdbc(DataSource dataSource) {
        return jdbc(dataSource, EventLogOptions.defaults());
    }

    /**
     * A log in the database of {@code dataSource}: creates its tables when missing. The writer keeps one
     * connection; queries borrow up to four more. A database that cannot be reached now (a PostgreSQL server that is
     * down or restarting) does not fail this call: the log opens, a warning is logged, appends queue up and the
     * writer retries with backoff until the database is back, then creates the tables and commits them; queries fail
     * with {@code EventLogException} meanwhile.
     *
     * @throws org.metaruntime.events.EventLogException when the database answers but refuses the log (credentials,
     *                                                  a missing database) or is neither PostgreSQL nor SQLite
     */
    public static EventLog jdbc(DataSource dataSource, EventLogOptions options) {
        return new JdbcEventLog(Objects.requireNonNull(dataSource, "dataSource"), options);
    }
}
