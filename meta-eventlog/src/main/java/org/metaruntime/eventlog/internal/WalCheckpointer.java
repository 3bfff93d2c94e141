package org.metaruntime.eventlog.internal;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import javax.sql.DataSource;
import org.metaruntime.supervisor.internal.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a SQLite log's WAL checkpoints on a thread of its own ({@code meta-eventlog-checkpoint}), so that the
 * writer thread only appends to the WAL and never copies pages into the database file or waits for its
 * {@code fsync}.
 *
 * <p>The writer's connection is {@linkplain #attach attached}: its automatic checkpoints are turned off. After
 * every {@value #ROWS_PER_CHECKPOINT} committed rows the checkpointer runs a {@code PASSIVE} checkpoint, which
 * never blocks the writer or a reader. While appends keep coming, a passive checkpoint cannot let the WAL start
 * over (the writer keeps adding frames behind it); once the WAL holds more than {@value #RESTART_FRAMES} frames
 * the checkpointer runs a {@code RESTART} checkpoint, which makes the writer wait for the little the passive one
 * left, and the next commit writes from the start of the WAL again. Crash safety does not change: a checkpoint
 * only copies committed frames, and SQLite replays the WAL when the file is opened again.
 *
 * <p>Thread-safe: {@link #attach} and {@link #committed} are called by the writer thread, {@link #close} by
 * the writer thread when it ends.
 */
public final class WalCheckpointer implements AutoCloseable {

    /** Committed rows between two checkpoints. */
    static final int ROWS_PER_CHECKPOINT = 4_096;
    /** WAL frames (pages) beyond which a checkpoint makes the WAL start over. */
    static final int RESTART_FRAMES = 16_384;

    private static final Logger LOG = LoggerFactory.getLogger(WalCheckpointer.class);

    private final DataSource dataSource;
    private Thread thread;
    private long pendingRows;
    private boolean stopping;
    private boolean warned;

    /** A checkpointer for the SQLite database of {@code dataSource}; it starts with the first attach. */
    public WalCheckpointer(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Takes over the checkpoints of the writer's {@code connection} when its database is in WAL mode (a
     * database in another journal mode has none to take over).
     */
    public void attach(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement()) {
            try (ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
                if (!rs.next() || !"wal".equals(rs.getString(1).toLowerCase(Locale.ROOT))) {
                    return;
                }
            }
            s.execute("PRAGMA wal_autocheckpoint=0");
        }
        synchronized (this) {
            if (thread == null && !stopping) {
                thread = DaemonThreads.thread("meta-eventlog-checkpoint", this::run);
                thread.start();
            }
        }
    }

    /** Counts {@code rows} just committed by the writer; wakes the checkpointer when a checkpoint is due. */
    public void committed(long rows) {
        synchronized (this) {
            pendingRows += rows;
            if (thread != null && pendingRows >= ROWS_PER_CHECKPOINT) {
                notifyAll();
            }
        }
    }

    /** Stops the checkpointer and waits for it; the last connection's close checkpoints what is left. */
    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            stopping = true;
            notifyAll();
            t = thread;
        }
        if (t != null) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        Connection c = null;
        try {
            while (awaitDue()) {
                try {
                    if (c == null) {
                        c = dataSource.getConnection();
                    }
                    if (checkpoint(c, "PASSIVE") > RESTART_FRAMES) {
                        checkpoint(c, "RESTART");
                    }
                    warned = false;
                } catch (SQLException e) {
                    if (!warned) {
                        warned = true;
                        LOG.warn("event log checkpoint failed; trying again later", e);
                    }
                    ConnectionPool.closeQuietly(c);
                    c = null;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            ConnectionPool.closeQuietly(c);
        }
    }

    private synchronized boolean awaitDue() throws InterruptedException {
        while (!stopping && pendingRows < ROWS_PER_CHECKPOINT) {
            wait();
        }
        pendingRows = 0;
        return !stopping;
    }

    /** Runs one checkpoint; returns the frames the WAL holds. */
    private static long checkpoint(Connection c, String mode) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA wal_checkpoint(" + mode + ")")) {
            return rs.next() ? rs.getLong(2) : 0;
        }
    }
}
