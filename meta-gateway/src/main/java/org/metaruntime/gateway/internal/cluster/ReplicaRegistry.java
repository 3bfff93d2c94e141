package org.metaruntime.gateway.internal.cluster;

import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replicas of a cluster as the shared database's {@code gateway_replica} table lists them: this replica registers
 * itself ({@link #register}), writes its heartbeat every {@link #HEARTBEAT} ({@link #start}), and removes itself at a
 * clean stop ({@link #close}). A replica whose heartbeat is older than {@link #GONE_AFTER} is gone. Heartbeats are
 * written and judged with the database's clock, so the replicas' own clocks do not matter. Thread-safe.
 */
public final class ReplicaRegistry implements Replicas, AutoCloseable {

    /** How often a replica writes its heartbeat. */
    public static final Duration HEARTBEAT = Duration.ofSeconds(5);
    /** A replica whose heartbeat is older than this is gone. */
    public static final Duration GONE_AFTER = Duration.ofSeconds(15);

    private static final Logger log = LoggerFactory.getLogger(ReplicaRegistry.class);
    /** Serializes the creation of the tables by replicas starting together. */
    private static final long SCHEMA_LOCK = 7262018455129612L;
    private static final String UPSERT = "INSERT INTO gateway_replica (id, url, heartbeat, started) VALUES (?, ?, now(), now())"
            + " ON CONFLICT (id) DO UPDATE SET url = EXCLUDED.url, heartbeat = now()";
    private static final String LIVE = "SELECT id, url, (EXTRACT(EPOCH FROM heartbeat) * 1000)::BIGINT FROM gateway_replica"
            + " WHERE heartbeat > now() - make_interval(secs => ?) ORDER BY id";

    private final DataSource database;
    private final String self;
    private final URI url;
    private final Object lock = new Object();
    private volatile List<Replica> lastLive = List.of();
    private volatile boolean registered;
    private volatile boolean reachable;
    private volatile boolean closed;
    private volatile boolean warned;
    private ScheduledFuture<?> beats;

    /**
     * A registry of replica {@code self}, reached on {@code url}, in {@code database}.
     */
    public ReplicaRegistry(DataSource database, String self, URI url) {
        this.database = Objects.requireNonNull(database, "database");
        this.self = Objects.requireNonNull(self, "self");
        this.url = Objects.requireNonNull(url, "url");
    }

    /** Creates the table when missing (idempotent, safe for replicas starting together). */
    public static void createSchema(Connection c) throws SQLException {
        StateDatabase.createTable(c, SCHEMA_LOCK, "CREATE TABLE IF NOT EXISTS gateway_replica (id TEXT PRIMARY KEY, url TEXT NOT NULL,"
                + " heartbeat TIMESTAMPTZ NOT NULL, started TIMESTAMPTZ NOT NULL)");
    }

    /**
     * Registers this replica (creating the table when missing) and reads the live replicas; returns whether it
     * succeeded. A failure is logged: the next heartbeat tries again.
     */
    public boolean register() {
        synchronized (lock) {
            if (closed) {
                return false;
            }
            try (Connection c = database.getConnection()) {
                createSchema(c);
                upsert(c);
                refresh(c);
                if (!registered) {
                    log.info("replica {} registered, reached on {}", self, url);
                }
                registered = true;
                reachable = true;
                return true;
            } catch (SQLException e) {
                unreachable(e);
                return false;
            }
        }
    }

    /** Writes this replica's heartbeat (registering it when it is not yet) and reads the live replicas. */
    public void beat() {
        if (!registered) {
            register();
            return;
        }
        synchronized (lock) {
            if (closed) {
                return;
            }
            try (Connection c = database.getConnection()) {
                upsert(c);
                refresh(c);
                if (!reachable) {
                    log.info("the database is reachable again");
                }
                reachable = true;
            } catch (SQLException e) {
                unreachable(e);
            }
        }
    }

    /** Writes the heartbeat every {@link #HEARTBEAT} on {@code scheduler} until {@link #close}. */
    public void start(ScheduledExecutorService scheduler) {
        synchronized (lock) {
            if (beats == null && !closed) {
                long period = HEARTBEAT.toMillis();
                beats = scheduler.scheduleAtFixedRate(this::beatQuietly, period, period, TimeUnit.MILLISECONDS);
            }
        }
    }

    private void beatQuietly() {
        try {
            beat();
        } catch (RuntimeException e) {
            log.warn("the replica heartbeat failed", e);
        }
    }

    /**
     * Whether this replica takes requests: once it has reached the database and registered, and until it stops. A later
     * database outage leaves it ready: it keeps serving modern requests and the sessions it holds (its health says the
     * database is unreachable), which a balancer that dropped every replica at once could not.
     */
    public boolean ready() {
        return registered && !closed;
    }

    /** Whether this replica has registered itself. */
    public boolean registered() {
        return registered;
    }

    /** Whether the last use of the database succeeded. */
    public boolean reachable() {
        return reachable;
    }

    /** The URL other replicas reach this one on. */
    public URI url() {
        return url;
    }

    @Override
    public String self() {
        return self;
    }

    /**
     * The URL of replica {@code replicaId} as of the last list read (each heartbeat reads it), so that a forwarded
     * request costs no trip to the database; read now only for a replica that list does not hold (it joined since).
     * A replica gone since the last heartbeat is still given: a request forwarded to it finds it gone.
     */
    @Override
    public Optional<URI> urlOf(String replicaId) {
        if (self.equals(replicaId)) {
            return Optional.of(url);
        }
        Optional<URI> known = find(lastLive, replicaId);
        return known.isPresent() ? known : find(live(), replicaId);
    }

    private static Optional<URI> find(List<Replica> replicas, String replicaId) {
        return replicas.stream().filter(r -> r.id().equals(replicaId)).map(Replica::url).findFirst();
    }

    /** Every live replica, this one included, in id order: read now, or the last list read when the read fails. */
    @Override
    public List<Replica> live() {
        try (Connection c = database.getConnection()) {
            refresh(c);
            reachable = true;
        } catch (SQLException e) {
            unreachable(e);
        }
        return lastLive;
    }

    /** Stops the heartbeat and removes this replica from the table. */
    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            if (beats != null) {
                beats.cancel(false);
            }
            if (!registered) {
                return;
            }
            try (Connection c = database.getConnection();
                 PreparedStatement delete = c.prepareStatement("DELETE FROM gateway_replica WHERE id = ?")) {
                delete.setString(1, self);
                delete.executeUpdate();
                log.info("replica {} left the cluster", self);
            } catch (SQLException e) {
                log.warn("replica {} could not remove itself from the database ({}); it is gone once its heartbeat"
                        + " is {} s old", self, e.getMessage(), GONE_AFTER.toSeconds());
            }
        }
    }

    private void upsert(Connection c) throws SQLException {
        try (PreparedStatement up = c.prepareStatement(UPSERT)) {
            up.setString(1, self);
            up.setString(2, url.toString());
            up.executeUpdate();
        }
    }

    private void refresh(Connection c) throws SQLException {
        List<Replica> live = new ArrayList<>();
        try (PreparedStatement q = c.prepareStatement(LIVE)) {
            q.setDouble(1, GONE_AFTER.toMillis() / 1000.0);
            try (ResultSet rows = q.executeQuery()) {
                while (rows.next()) {
                    live.add(new Replica(rows.getString(1), URI.create(rows.getString(2)), rows.getLong(3)));
                }
            }
        }
        lastLive = List.copyOf(live);
    }

    private void unreachable(SQLException e) {
        if (reachable || !warned) {
            log.warn("the database of the cluster cannot be reached: {}", e.getMessage());
        }
        warned = true;
        reachable = false;
    }
}
