package org.metaruntime.eventlog.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.metaruntime.eventlog.EventLogOptions;
import org.metaruntime.events.EventCodec;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.MobEventProjection;
import org.metaruntime.events.MobStructuralEventEnvelope;
import org.metaruntime.events.UnifiedEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log's one writer thread ({@code meta-eventlog-writer}): takes what is queued, up to
 * {@code maxBatch} items, and commits it in one transaction (group commit). A full queue drops the item and
 * counts it; the next commit starts with a gap row and a {@code supervisor.warning} row carrying the count.
 * A failed commit is retried with backoff (the queue keeps absorbing, then counting, appends meanwhile).
 *
 * <p>Thread-safe: {@link #offer} may be called from any thread; everything else runs on the writer thread.
 */
public final class LogWriter implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(LogWriter.class);
    private static final long IDLE_POLL_MS = 100;
    private static final long MAX_BACKOFF_MS = 5_000;
    /**
     * Statements per JDBC batch: the SQLite driver keeps a batch's parameters in an array that only grows and that it
     * clears whole after every batch, so one huge batch would make every later small commit pay for clearing it.
     */
    private static final int STATEMENTS_PER_BATCH = 256;

    private final DataSource dataSource;
    private final SchemaGate schema;
    private final EventLogOptions options;
    private final Retention retention;
    private final ArrayBlockingQueue<Object> queue;
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final Progress progress;
    private volatile boolean stopping;
    private volatile boolean abandoned;
    private volatile boolean overflowing;
    private long gaps;
    private final WalCheckpointer checkpointer;
    private Connection connection;
    private Dialect dialect;
    private PreparedStatement insertFull;
    private PreparedStatement raiseHead;
    private PreparedStatement readHead;

    /** A writer for {@code dataSource}, creating the schema through {@code schema}; start it on a thread of its own. */
    public LogWriter(DataSource dataSource, EventLogOptions options, Progress progress, SchemaGate schema) {
        this.dataSource = dataSource;
        this.schema = schema;
        this.options = options;
        this.progress = progress;
        this.retention = new Retention(options);
        this.queue = new ArrayBlockingQueue<>(options.queueCapacity());
        this.checkpointer = new WalCheckpointer(dataSource);
    }

    /** Queues an envelope or a mob event without waiting; a full queue counts it as dropped. */
    public void offer(Object item) {
        accepted.incrementAndGet();
        if (!queue.offer(item)) {
            dropped.incrementAndGet();
            if (!overflowing) {
                overflowing = true;
                LOG.warn("event log queue full ({}): dropping appends until the writer catches up; a gap row will "
                        + "count them", options.queueCapacity());
            }
        }
    }

    /** How many items were offered so far (the target of a flush). */
    public long accepted() {
        return accepted.get();
    }

    /** Asks the writer to commit what is queued and stop. */
    public void stop() {
        stopping = true;
    }

    /** Gives up on what could not be committed (at the end of a failed close). */
    public void abandon() {
        abandoned = true;
    }

    @Override
    public void run() {
        List<Object> batch = new ArrayList<>(Math.min(options.maxBatch(), 65_536));
        try {
            while (true) {
                Object first = queue.poll(IDLE_POLL_MS, TimeUnit.MILLISECONDS);
                if (first != null) {
                    batch.add(first);
                    queue.drainTo(batch, options.maxBatch() - 1);
                }
                long gap = dropped.getAndSet(0);
                if (gap > 0) {
                    overflowing = false;
                }
                if (!batch.isEmpty() || gap > 0) {
                    boolean committed = commitWithRetry(batch, gap);
                    progress.advance(batch.size() + gap, committed);
                    batch.clear();
                } else if (stopping) {
                    return;
                }
                applyRetention();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            long lost = queue.size() + dropped.get();
            if (lost > 0) {
                LOG.error("event log closed with {} envelopes that could not be committed", lost);
            }
            discard();
            checkpointer.close();
            progress.stop();
        }
    }

    private boolean commitWithRetry(List<Object> batch, long gap) throws InterruptedException {
        long backoff = 50;
        for (int attempt = 1; ; attempt++) {
            try {
                commit(batch, gap);
                if (attempt > 1) {
                    LOG.info("event log writes again after {} failures", attempt - 1);
                }
                return true;
            } catch (SQLException | RuntimeException e) {
                rollbackAndDiscard();
                if (attempt == 1) {
                    LOG.warn("event log commit failed; retrying", e);
                }
                if (abandoned) {
                    LOG.error("event log gives up {} envelopes it could not commit", batch.size() + gap, e);
                    return false;
                }
                Thread.sleep(backoff);
                backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
            }
        }
    }

    private void commit(List<Object> batch, long gap) throws SQLException {
        Connection c = connection();
        long now = options.clock().millis();
        List<String> envelopes = new ArrayList<>(batch.size() + 2);
        List<EventEnvelope<UnifiedEvent>> events = new ArrayList<>(batch.size() + 2);
        if (gap > 0) {
            gapRows(now, gap, events);
        }
        List<MobStructuralEventEnvelope> mobs = new ArrayList<>();
        for (Object item : batch) {
            if (item instanceof MobStructuralEventEnvelope) {
                mobs.add((MobStructuralEventEnvelope) item);
            } else {
                @SuppressWarnings("unchecked")
                EventEnvelope<UnifiedEvent> envelope = (EventEnvelope<UnifiedEvent>) item;
                events.add(envelope);
            }
        }
        for (EventEnvelope<UnifiedEvent> envelope : events) {
            envelopes.add(EventCodec.toJson(envelope));
        }
        if (!events.isEmpty()) {
            insertEvents(c, reserve(c, events.size()), now, events, envelopes);
        }
        if (!mobs.isEmpty()) {
            try (PreparedStatement insert = c.prepareStatement(QueryBuilder.INSERT_MOB_EVENT)) {
                for (MobStructuralEventEnvelope mob : mobs) {
                    insert.setString(1, mob.mobId());
                    insert.setLong(2, mob.cursor());
                    insert.setString(3, options.instanceId());
                    insert.setLong(4, now);
                    insert.setLong(5, mob.timestampMs());
                    insert.setString(6, mob.kind());
                    insert.setString(7, mob.runId());
                    insert.setString(8, MobEventProjection.toJson(mob));
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
        c.commit();
        checkpointer.committed(events.size() + mobs.size());
    }

    /**
     * Inserts the rows {@link Dialect#rowsPerInsert()} per statement, {@value #STATEMENTS_PER_BATCH} statements per
     * JDBC batch: few round trips (PostgreSQL) or few native calls (SQLite) per commit is what makes group commit
     * cheap.
     */
    private void insertEvents(Connection c, long firstSeq, long now, List<EventEnvelope<UnifiedEvent>> events,
                              List<String> envelopes) throws SQLException {
        int perStatement = dialect(c).rowsPerInsert();
        int full = events.size() / perStatement;
        int rest = events.size() % perStatement;
        int row = 0;
        if (full > 0) {
            if (insertFull == null) {
                insertFull = c.prepareStatement(QueryBuilder.insertEvents(perStatement));
            }
            for (int s = 0; s < full; s++) {
                for (int k = 0; k < perStatement; k++, row++) {
                    bindEvent(insertFull, k * QueryBuilder.EVENT_COLUMNS, firstSeq + row, now, events.get(row),
                            envelopes.get(row));
                }
                insertFull.addBatch();
                if ((s + 1) % STATEMENTS_PER_BATCH == 0) {
                    insertFull.executeBatch();
                }
            }
            if (full % STATEMENTS_PER_BATCH != 0) {
                insertFull.executeBatch();
            }
        }
        if (rest > 0) {
            try (PreparedStatement insert = c.prepareStatement(QueryBuilder.insertEvents(rest))) {
                for (int k = 0; k < rest; k++, row++) {
                    bindEvent(insert, k * QueryBuilder.EVENT_COLUMNS, firstSeq + row, now, events.get(row),
                            envelopes.get(row));
                }
                insert.executeUpdate();
            }
        }
    }

    private void bindEvent(PreparedStatement insert, int at, long seq, long now, EventEnvelope<UnifiedEvent> envelope,
                           String json) throws SQLException {
        UnifiedEvent event = envelope.event();
        insert.setLong(at + 1, seq);
        insert.setString(at + 2, options.instanceId());
        insert.setLong(at + 3, now);
        insert.setString(at + 4, envelope.eventId());
        insert.setString(at + 5, envelope.source());
        insert.setLong(at + 6, envelope.timestampMs());
        insert.setString(at + 7, event instanceof UnifiedEvent.Module ? ((UnifiedEvent.Module) event).event().module()
                : null);
        insert.setString(at + 8, event instanceof UnifiedEvent.Agent ? ((UnifiedEvent.Agent) event).agentId() : null);
        insert.setString(at + 9, event.eventType());
        insert.setString(at + 10, json);
    }

    /** Raises the head by {@code n} (its row lock orders concurrent writers) and returns the first new seq. */
    private long reserve(Connection c, int n) throws SQLException {
        if (raiseHead == null) {
            raiseHead = c.prepareStatement(QueryBuilder.RAISE_HEAD);
            readHead = c.prepareStatement(QueryBuilder.READ_HEAD);
        }
        raiseHead.setLong(1, n);
        raiseHead.setString(2, Schema.EVENT_SEQUENCE);
        if (raiseHead.executeUpdate() != 1) {
            throw new SQLException("the event log's head row is missing");
        }
        readHead.setString(1, Schema.EVENT_SEQUENCE);
        try (ResultSet rs = readHead.executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("the event log's head row is missing");
            }
            return rs.getLong(1) - n + 1;
        }
    }

    private void gapRows(long now, long gap, List<EventEnvelope<UnifiedEvent>> events) {
        gaps++;
        String id = options.instanceId() + ":gap:" + gaps;
        ObjectNode gapPayload = JsonNodeFactory.instance.objectNode().put("dropped", gap);
        events.add(EventEnvelope.module(id, now, EventLog.LOG_MODULE, EventLog.GAP_EVENT_TYPE, gapPayload));
        ObjectNode warning = JsonNodeFactory.instance.objectNode()
                .put("error", "The event log's queue was full and " + gap + " envelopes were dropped.")
                .put("error_type", "event_log_overflow")
                .put("dropped", gap);
        events.add(EventEnvelope.module(id + ":warning", now, EventLog.LOG_MODULE, "supervisor.warning", warning));
    }

    private void applyRetention() {
        if (!retention.due()) {
            return;
        }
        try {
            retention.apply(connection());
        } catch (SQLException | RuntimeException e) {
            rollbackAndDiscard();
            LOG.warn("event log retention failed; trying again later", e);
        }
    }

    private Connection connection() throws SQLException {
        if (connection == null) {
            connection = dataSource.getConnection();
            schema.ensure(connection);
            dialect = Dialect.of(connection);
            if (dialect == Dialect.SQLITE) {
                checkpointer.attach(connection);
            }
            connection.setAutoCommit(false);
        }
        return connection;
    }

    private Dialect dialect(Connection c) throws SQLException {
        return dialect != null ? dialect : Dialect.of(c);
    }

    private void rollbackAndDiscard() {
        if (connection != null) {
            try {
                connection.rollback();
            } catch (SQLException ignored) {
                // The connection is discarded below.
            }
        }
        discard();
    }

    /** Closes the connection and the statements prepared on it. */
    private void discard() {
        for (PreparedStatement statement : new PreparedStatement[] {insertFull, raiseHead, readHead}) {
            if (statement != null) {
                try {
                    statement.close();
                } catch (SQLException ignored) {
                    // The connection is closed next.
                }
            }
        }
        insertFull = null;
        raiseHead = null;
        readHead = null;
        ConnectionPool.closeQuietly(connection);
        connection = null;
    }
}
