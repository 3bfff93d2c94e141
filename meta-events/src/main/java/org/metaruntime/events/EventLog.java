package org.metaruntime.events;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * The durable history of a runtime's events: every envelope that enters the merged {@link EventStore}, and
 * the structural mob events the runtime projected, each with a log sequence number ({@code seq}).
 *
 * <ul>
 *   <li>{@link #append} never blocks: envelopes wait in a bounded queue and one writer thread commits them in
 *       batches (group commit). When the queue is full the log drops the envelope, counts it, and later
 *       writes one gap row ({@code module = meta.event_log}, {@code event_type = event_log.gap}, payload
 *       {@code {"dropped": n}}) and one {@code supervisor.warning} row: nothing is lost silently.</li>
 *   <li>Each row keeps the envelope byte-identical ({@link EventCodec}) and names the runtime instance that
 *       wrote it; {@code seq} is strictly increasing in the order rows were committed, also when several
 *       runtimes share one log.</li>
 *   <li>{@link #close()} commits everything appended before it, then releases the storage.</li>
 * </ul>
 *
 * <p>Implementations are thread-safe. The embedded default and the PostgreSQL implementation are in
 * {@code meta-eventlog} ({@code EventLogs}).
 *
 * <pre>{@code
 * try (EventLog log = EventLogs.persistentState(Path.of("state"))) {
 *     log.append(envelope);
 *     EventPage page = log.query(EventQuery.builder().module("search").build());
 * }
 * }</pre>
 */
public interface EventLog extends AutoCloseable {

    /** The module of the rows the log writes about itself (gaps and warnings). */
    String LOG_MODULE = "meta.event_log";
    /** The event type of a gap row; its payload is {@code {"dropped": n}}. */
    String GAP_EVENT_TYPE = "event_log.gap";

    /** The runtime instance this log writes as (stored in every row it appends). */
    String instanceId();

    /**
     * Queues {@code envelope} for the writer thread and returns at once.
     *
     * @throws IllegalStateException after {@link #close()}
     */
    void append(EventEnvelope<UnifiedEvent> envelope);

    /**
     * Queues a projected structural mob event, like {@link #append}.
     *
     * @throws IllegalStateException after {@link #close()}
     */
    void appendMobEvent(MobStructuralEventEnvelope event);

    /**
     * The committed rows matching {@code query}, in {@code seq} order.
     *
     * @throws EventLogException when the storage cannot be read
     */
    EventPage query(EventQuery query);

    /**
     * The committed structural mob events matching {@code query}, in cursor order. An event
     * already logged (same mob and cursor, for example by another runtime sharing the log) is kept once.
     *
     * @throws EventLogException when the storage cannot be read
     */
    MobEventPage mobEvents(MobEventQuery query);

    /**
     * Tails the log: {@code listener} receives every committed row matching {@code from.filter()} whose
     * {@code seq} is after {@code from.afterSeq()}, in {@code seq} order, each exactly once, first those
     * already committed and then new ones as they are committed (also rows other runtimes write to a shared
     * log). It runs on the subscription's own daemon thread ({@code meta-eventlog-tail-N}); a listener that
     * throws is logged and keeps its subscription. {@code from.limit()} is the batch read at a time.
     *
     * @throws IllegalStateException after {@link #close()}
     */
    Subscription subscribe(EventQuery from, Consumer<? super LoggedEvent> listener);

    /**
     * Tails the log's structural mob events, like {@link #subscribe}: {@code listener} receives every committed event
     * matching {@code from} whose cursor is after {@code from.afterCursor()}, in cursor order, each once, first those
     * already committed and then new ones as they are committed, on the subscription's own daemon thread.
     * {@code from.limit()} is the batch read at a time.
     *
     * @throws IllegalStateException after {@link #close()}
     */
    Subscription subscribeMobEvents(MobEventQuery from, Consumer<? super MobStructuralEventEnvelope> listener);

    /**
     * Waits until everything appended before this call is committed.
     *
     * @return false when {@code timeout} passed first
     */
    boolean flush(Duration timeout);

    /**
     * Commits everything queued, stops the writer thread and every subscription, releases the storage;
     * idempotent.
     */
    @Override
    void close();
}
