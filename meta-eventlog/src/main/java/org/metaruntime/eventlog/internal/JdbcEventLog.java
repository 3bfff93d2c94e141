package org.metaruntime.eventlog.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import javax.sql.DataSource;
import org.metaruntime.eventlog.EventLogOptions;
import org.metaruntime.events.EventCodec;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.EventLogException;
import org.metaruntime.events.EventPage;
import org.metaruntime.events.EventQuery;
import org.metaruntime.events.LoggedEvent;
import org.metaruntime.events.MobEventPage;
import org.metaruntime.events.MobEventProjection;
import org.metaruntime.events.MobEventQuery;
import org.metaruntime.events.MobStructuralEventEnvelope;
import org.metaruntime.events.Subscription;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.supervisor.internal.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link EventLog} over JDBC, for SQLite and PostgreSQL alike: appends go to the {@link LogWriter},
 * queries read through a {@link ConnectionPool} with the {@link QueryBuilder}'s SQL, tails are
 * {@link TailSubscription}s. Thread-safe.
 */
public final class JdbcEventLog implements EventLog {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcEventLog.class);

    private final EventLogOptions options;
    private final SchemaGate schema = new SchemaGate();
    private final ConnectionPool readers;
    private final Progress progress = new Progress();
    private final LogWriter writer;
    private final Thread writerThread;
    private final Set<TailSubscription<?, ?>> tails = ConcurrentHashMap.newKeySet();
    private final Object closeLock = new Object();
    private volatile boolean closed;

    /**
     * Opens the log: creates the schema when missing, starts the writer thread. A database that cannot be reached
     * now is an outage, not an error: the log opens, appends queue up, and the schema is created by the first
     * connection that reaches it.
     *
     * @throws EventLogException when the database answers but refuses (credentials, a missing database), or is
     *                           neither SQLite nor PostgreSQL
     */
    public JdbcEventLog(DataSource dataSource, EventLogOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        try (Connection c = dataSource.getConnection()) {
            schema.ensure(c);
        } catch (SQLException e) {
            if (!SchemaGate.isOutage(e)) {
                throw new EventLogException("could not open the event log: " + e.getMessage(), e);
            }
            LOG.warn("the event log's database cannot be reached ({}); appends are queued and the writer retries "
                    + "until it can", e.getMessage());
        }
        this.readers = new ConnectionPool(dataSource, 4);
        this.writer = new LogWriter(dataSource, options, progress, schema);
        this.writerThread = DaemonThreads.thread("meta-eventlog-writer", writer);
        writerThread.start();
    }

    @Override
    public String instanceId() {
        return options.instanceId();
    }

    @Override
    public void append(EventEnvelope<UnifiedEvent> envelope) {
        Objects.requireNonNull(envelope, "envelope");
        ensureOpen();
        writer.offer(envelope);
    }

    @Override
    public void appendMobEvent(MobStructuralEventEnvelope event) {
        Objects.requireNonNull(event, "event");
        ensureOpen();
        writer.offer(event);
    }

    @Override
    public EventPage query(EventQuery query) {
        Objects.requireNonNull(query, "query");
        return read(c -> {
            List<LoggedEvent> rows = new ArrayList<>(Math.min(query.limit(), 1024));
            boolean more = false;
            try (PreparedStatement statement = QueryBuilder.events(c, query);
                 ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    if (rows.size() == query.limit()) {
                        more = true;
                        break;
                    }
                    String json = rs.getString(4);
                    rows.add(new LoggedEvent(rs.getLong(1), rs.getString(2), rs.getLong(3), json,
                            EventCodec.fromJson(json)));
                }
            }
            return new EventPage(rows, more ? rows.get(rows.size() - 1).seq() : null);
        });
    }

    @Override
    public MobEventPage mobEvents(MobEventQuery query) {
        Objects.requireNonNull(query, "query");
        return read(c -> {
            List<MobStructuralEventEnvelope> rows = new ArrayList<>();
            boolean more = false;
            try (PreparedStatement statement = QueryBuilder.mobEvents(c, query);
                 ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    if (rows.size() == query.limit()) {
                        more = true;
                        break;
                    }
                    rows.add(MobEventProjection.fromJson(rs.getString(2)));
                }
            }
            return new MobEventPage(rows, more ? rows.get(rows.size() - 1).cursor() : null);
        });
    }

    @Override
    public Subscription subscribe(EventQuery from, Consumer<? super LoggedEvent> listener) {
        Objects.requireNonNull(from, "from");
        return tail(query -> {
            EventPage page = query(query);
            return new TailSubscription.Page<>(page.events(), page.nextAfterSeq() != null);
        }, (query, row) -> query.withAfterSeq(row.seq()), from, listener);
    }

    @Override
    public Subscription subscribeMobEvents(MobEventQuery from, Consumer<? super MobStructuralEventEnvelope> listener) {
        Objects.requireNonNull(from, "from");
        return tail(query -> {
            MobEventPage page = mobEvents(query);
            return new TailSubscription.Page<>(page.events(), page.nextAfterCursor() != null);
        }, (query, event) -> query.withAfterCursor(event.cursor()), from, listener);
    }

    private <Q, R> Subscription tail(Function<Q, TailSubscription.Page<R>> read, BiFunction<Q, R, Q> after, Q from,
                                     Consumer<? super R> listener) {
        Objects.requireNonNull(listener, "listener");
        synchronized (closeLock) {
            ensureOpen();
            TailSubscription<Q, R> tail = new TailSubscription<>(read, after, progress,
                    options.tailPollInterval().toMillis(), from, listener, tails::remove);
            tails.add(tail);
            return tail;
        }
    }

    @Override
    public boolean flush(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        try {
            return progress.awaitDone(writer.accepted(), timeout.toNanos());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void close() {
        synchronized (closeLock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        writer.stop();
        try {
            writerThread.join(Math.max(1, options.closeTimeout().toMillis()));
            if (writerThread.isAlive()) {
                writer.abandon();
                writerThread.join(10_000);
            }
        } catch (InterruptedException e) {
            writer.abandon();
            Thread.currentThread().interrupt();
        }
        for (TailSubscription<?, ?> tail : List.copyOf(tails)) {
            tail.close();
        }
        readers.close();
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the event log is closed");
        }
    }

    private <T> T read(SqlFunction<T> body) {
        Connection c;
        try {
            c = readers.borrow();
        } catch (SQLException e) {
            throw new EventLogException("could not read the event log: " + e.getMessage(), e);
        }
        boolean healthy = false;
        try {
            schema.ensure(c);
            T result = body.apply(c);
            healthy = true;
            return result;
        } catch (SQLException e) {
            throw new EventLogException("could not read the event log: " + e.getMessage(), e);
        } finally {
            readers.release(c, healthy);
        }
    }

    @FunctionalInterface
    private interface SqlFunction<T> {
        T apply(Connection c) throws SQLException;
    }
}
