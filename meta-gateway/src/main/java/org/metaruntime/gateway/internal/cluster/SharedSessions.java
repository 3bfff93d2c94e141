package org.metaruntime.gateway.internal.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import javax.sql.DataSource;

/**
 * The legacy HTTP sessions of a cluster in its shared database ({@code gateway_session}): written at
 * {@code initialize}, loaded by a replica that does not hold one in memory, touched by each request, removed by
 * {@code DELETE} or idle expiry. Idle time is judged on the shared last use with the database's clock, so a
 * replica's own clock does not change when a session expires. Every method throws {@link DatabaseUnreachable} when
 * the database cannot be reached, and for {@link #RETRY_AFTER} after such a failure without trying again (a request
 * never waits on a database that is away). A few connections are kept open between requests; one that fails is
 * replaced by a new one before the database counts as unreachable. Thread-safe.
 */
public final class SharedSessions implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long SCHEMA_LOCK = 7262018455129613L;

    /** After a failure to reach the database, requests fail at once for this long before it is tried again. */
    static final Duration RETRY_AFTER = Duration.ofSeconds(2);
    /**
     * Connections open at once, all kept between requests: a burst of requests waits for one of these rather than
     * opening (and closing) a connection of its own, which costs the database and this process milliseconds each.
     */
    static final int MAX_CONNECTIONS = 8;
    /** How long a request waits for a connection before it counts the database as out of reach. */
    static final Duration CONNECTION_WAIT = Duration.ofSeconds(StateDatabase.CONNECT_SECONDS);

    private final DataSource database;
    private final Duration idleTimeout;
    private final LongSupplier nanoClock;
    private volatile boolean schemaReady;
    private volatile SQLException lastFailure;
    private final ArrayDeque<Connection> idle = new ArrayDeque<>();
    private final Semaphore connections = new Semaphore(MAX_CONNECTIONS);
    private boolean closed;
    private volatile long failedAtNanos;

    /** Sessions in {@code database} that expire after {@code idleTimeout} without a request. */
    public SharedSessions(DataSource database, Duration idleTimeout) {
        this(database, idleTimeout, System::nanoTime);
    }

    /** Sessions in {@code database}; {@code nanoClock} times the pause after a failure. */
    SharedSessions(DataSource database, Duration idleTimeout, LongSupplier nanoClock) {
        this.database = Objects.requireNonNull(database, "database");
        this.idleTimeout = Objects.requireNonNull(idleTimeout, "idleTimeout");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    }

    /** Writes a new session; its created and last-used times are the database's now. */
    public void create(SessionRecord session) {
        run(c -> {
            try (PreparedStatement s = c.prepareStatement("INSERT INTO gateway_session (id, protocol_version, capabilities,"
                    + " client_info, log_level, principal_name, principal_auth, created, last_used)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, now(), now())")) {
                s.setString(1, session.id());
                s.setString(2, session.protocolVersion());
                s.setString(3, write(session.capabilities()));
                s.setString(4, write(session.clientInfo()));
                s.setString(5, session.logLevel());
                s.setString(6, session.principalName());
                s.setString(7, session.principalAuth());
                s.executeUpdate();
            }
            return null;
        });
    }

    /** The session {@code id} when it exists and has not been idle longer than the timeout. */
    public Optional<SessionRecord> load(String id) {
        return run(c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT id, protocol_version, capabilities, client_info, log_level,"
                    + " principal_name, principal_auth, (EXTRACT(EPOCH FROM created) * 1000)::BIGINT,"
                    + " (EXTRACT(EPOCH FROM last_used) * 1000)::BIGINT FROM gateway_session"
                    + " WHERE id = ? AND last_used > now() - make_interval(secs => ?)")) {
                s.setString(1, id);
                s.setDouble(2, idleSeconds());
                try (ResultSet row = s.executeQuery()) {
                    if (!row.next()) {
                        return Optional.empty();
                    }
                    return Optional.of(new SessionRecord(row.getString(1), row.getString(2), read(row.getString(3)),
                            read(row.getString(4)), row.getString(5), row.getString(6), row.getString(7), row.getLong(8),
                            row.getLong(9)));
                }
            }
        });
    }

    /**
     * Records a request of session {@code id} now; false when the session is gone (removed by {@code DELETE} on any
     * replica, or idle longer than the timeout).
     */
    public boolean touch(String id) {
        return run(c -> {
            try (PreparedStatement s = c.prepareStatement("UPDATE gateway_session SET last_used = now()"
                    + " WHERE id = ? AND last_used > now() - make_interval(secs => ?)")) {
                s.setString(1, id);
                s.setDouble(2, idleSeconds());
                return s.executeUpdate() == 1;
            }
        });
    }

    /** Records the log level session {@code id} set. */
    public void logLevel(String id, String level) {
        run(c -> {
            try (PreparedStatement s = c.prepareStatement("UPDATE gateway_session SET log_level = ? WHERE id = ?")) {
                s.setString(1, level);
                s.setString(2, id);
                s.executeUpdate();
            }
            return null;
        });
    }

    /** Removes session {@code id} (its {@code DELETE}). */
    public void delete(String id) {
        run(c -> {
            try (PreparedStatement s = c.prepareStatement("DELETE FROM gateway_session WHERE id = ?")) {
                s.setString(1, id);
                s.executeUpdate();
            }
            return null;
        });
    }

    /**
     * Removes session {@code id} when it has been idle longer than the timeout, judged on its shared last use; returns
     * whether it is gone (expired now, or removed before). False: another replica used it recently.
     */
    public boolean expireIfIdle(String id) {
        return run(c -> {
            try (PreparedStatement s = c.prepareStatement("DELETE FROM gateway_session"
                    + " WHERE id = ? AND last_used <= now() - make_interval(secs => ?)")) {
                s.setString(1, id);
                s.setDouble(2, idleSeconds());
                if (s.executeUpdate() == 1) {
                    return true;
                }
            }
            try (PreparedStatement s = c.prepareStatement("SELECT 1 FROM gateway_session WHERE id = ?")) {
                s.setString(1, id);
                try (ResultSet row = s.executeQuery()) {
                    return !row.next();
                }
            }
        });
    }

    /** Removes every session idle longer than the timeout (of replicas that held them and are gone); returns how many. */
    public int sweep() {
        return run(c -> {
            try (PreparedStatement s = c.prepareStatement("DELETE FROM gateway_session"
                    + " WHERE last_used <= now() - make_interval(secs => ?)")) {
                s.setDouble(1, idleSeconds());
                return s.executeUpdate();
            }
        });
    }

    private double idleSeconds() {
        return idleTimeout.toMillis() / 1000.0;
    }

    /** Work done on one of the kept connections. */
    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    /**
     * Runs {@code work} on one of the kept connections (other tables of the cluster's state share them).
     *
     * @throws DatabaseUnreachable when the database cannot be reached
     */
    <T> T run(Work<T> work) {
        SQLException failed = lastFailure;
        if (failed != null && nanoClock.getAsLong() - failedAtNanos < RETRY_AFTER.toNanos()) {
            throw new DatabaseUnreachable(failed);
        }
        try {
            if (!connections.tryAcquire(CONNECTION_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new DatabaseUnreachable(new SQLException("no connection to the database came free within "
                        + CONNECTION_WAIT.toSeconds() + " s"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DatabaseUnreachable(new SQLException("interrupted while waiting for a connection"));
        }
        try {
            return runHolding(work);
        } finally {
            connections.release();
        }
    }

    /** {@link #run} with one of the {@link #MAX_CONNECTIONS} permits held. */
    private <T> T runHolding(Work<T> work) {
        Connection kept;
        synchronized (idle) {
            kept = idle.poll();
        }
        if (kept != null) {
            try {
                return done(kept, attempt(kept, work));
            } catch (SQLException stale) {
                // the database may have restarted since: every kept connection goes, a new one tries again
                closeQuietly(kept);
                closeIdle();
            }
        }
        Connection fresh;
        try {
            fresh = database.getConnection();
        } catch (SQLException e) {
            throw failed(e);
        }
        try {
            return done(fresh, attempt(fresh, work));
        } catch (SQLException e) {
            closeQuietly(fresh);
            throw failed(e);
        }
    }

    private <T> T attempt(Connection c, Work<T> work) throws SQLException {
        if (!schemaReady) {
            createSchema(c);
            schemaReady = true;
        }
        return work.run(c);
    }

    /** Keeps {@code c} for the next request (a few at most); returns {@code result}. */
    private <T> T done(Connection c, T result) {
        lastFailure = null;
        synchronized (idle) {
            if (!closed && idle.size() < MAX_CONNECTIONS) {
                idle.push(c);
                return result;
            }
        }
        closeQuietly(c);
        return result;
    }

    private DatabaseUnreachable failed(SQLException e) {
        failedAtNanos = nanoClock.getAsLong();
        lastFailure = e;
        return new DatabaseUnreachable(e);
    }

    private void closeIdle() {
        List<Connection> all;
        synchronized (idle) {
            all = new ArrayList<>(idle);
            idle.clear();
        }
        all.forEach(SharedSessions::closeQuietly);
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // gone either way
        }
    }

    /** Closes the connections it keeps; later requests open new ones. */
    @Override
    public void close() {
        synchronized (idle) {
            closed = true;
        }
        closeIdle();
    }

    private static void createSchema(Connection c) throws SQLException {
        StateDatabase.createTable(c, SCHEMA_LOCK, "CREATE TABLE IF NOT EXISTS gateway_session (id TEXT PRIMARY KEY,"
                + " protocol_version TEXT NOT NULL, capabilities TEXT NOT NULL, client_info TEXT NOT NULL,"
                + " log_level TEXT NOT NULL, principal_name TEXT NOT NULL, principal_auth TEXT NOT NULL,"
                + " created TIMESTAMPTZ NOT NULL, last_used TIMESTAMPTZ NOT NULL)");
    }

    private static String write(JsonNode node) {
        try {
            return JSON.writeValueAsString(node == null ? JSON.nullNode() : node);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static JsonNode read(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            return JSON.nullNode();
        }
    }
}
