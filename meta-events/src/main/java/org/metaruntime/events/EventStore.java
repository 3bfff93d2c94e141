package org.metaruntime.events;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.metaruntime.events.internal.DefaultEventStore;

/**
 * The merged event store: a bounded, sorted recent-event buffer of envelopes with lossy subscriptions.
 *
 * <ul>
 *   <li>Envelopes are kept in {@link Events#order()}; {@link #insert} places each one after every equal key.
 *       Agent envelopes go through {@link AgentEventProjection} before they are stored.</li>
 *   <li>It keeps at least the newest {@code retention} envelopes (default 4,096): when the size reaches
 *       {@code retention + batch} (default batch 1,024) the oldest are dropped down to {@code retention}.</li>
 *   <li>Subscriptions are lossy and never block {@link #insert}: see {@link #subscribe(Consumer, int)}.</li>
 * </ul>
 *
 * <p>Thread-safe. Inserting in timestamp order costs O(1) amortised; an out-of-order insert finds its
 * place by binary search and shifts the shorter side of the buffer.
 *
 * <pre>{@code
 * try (EventStore store = EventStore.create();
 *      Subscription sub = store.subscribe(n -> System.out.println(n), 256)) {
 *     store.insert(EventNormalizer.normalize(line));
 *     List<EventEnvelope<UnifiedEvent>> recent = store.snapshot();
 * }
 * }</pre>
 */
public interface EventStore extends AutoCloseable {

    /** Default number of newest envelopes always kept. */
    int DEFAULT_RETENTION = 4096;
    /** Default number of envelopes dropped at once. */
    int DEFAULT_DROP_BATCH = 1024;
    /** Default queue capacity of a subscription. */
    int DEFAULT_QUEUE_CAPACITY = 1024;

    /**
     * A store keeping at least {@code retention} envelopes and dropping {@code batch} at once.
     *
     * @throws IllegalArgumentException unless {@code retention ≥ 1}, {@code batch ≥ 1} and their sum is at
     *                                  most 2<sup>28</sup>
     */
    static EventStore create(int retention, int batch) {
        return new DefaultEventStore(retention, batch);
    }

    /**
     * A store that also appends every envelope it stores (after the agent projection, in insertion order) to
     * {@code log}, without waiting for it. Closing the store does not close the log.
     *
     * @throws IllegalArgumentException as {@link #create(int, int)}
     */
    static EventStore create(int retention, int batch, EventLog log) {
        return new DefaultEventStore(retention, batch, java.util.Objects.requireNonNull(log, "log"));
    }

    /** A store with the defaults: retention 4,096, batch 1,024. */
    static EventStore create() {
        return create(DEFAULT_RETENTION, DEFAULT_DROP_BATCH);
    }

    /** Inserts {@code envelope} in order, then offers it to every subscription without waiting. */
    void insert(EventEnvelope<UnifiedEvent> envelope);

    /** Inserts each envelope in turn. */
    default void insertAll(List<EventEnvelope<UnifiedEvent>> envelopes) {
        for (EventEnvelope<UnifiedEvent> envelope : envelopes) {
            insert(envelope);
        }
    }

    /** An immutable copy of the stored envelopes, in order. */
    List<EventEnvelope<UnifiedEvent>> snapshot();

    /** The stored envelopes matching {@code filter}, in order, as an immutable list. */
    List<EventEnvelope<UnifiedEvent>> query(EventFilter filter);

    /** The last envelope in order, if any. */
    Optional<EventEnvelope<UnifiedEvent>> newest();

    /** How many envelopes are stored. */
    int size();

    /** The number of newest envelopes always kept. */
    int retention();

    /** The number of envelopes dropped at once. */
    int dropBatch();

    /**
     * Subscribes. The subscriber is called on the subscription's own daemon thread
     * ({@code meta-events-subscriber-N}), one notification at a time: first
     * {@code ResyncRequired(INITIAL_SYNC, 0)}, then each inserted envelope. Notifications wait in a queue of
     * {@code queueCapacity}; when it is full, new envelopes are skipped and the subscriber later receives
     * {@code ResyncRequired(LAGGED, skipped)} at the place of the gap, and should re-read {@link #snapshot()}.
     * A subscriber that throws is logged (through SLF4J) and keeps its subscription. It should be
     * fast.
     *
     * @param queueCapacity at least 1
     * @throws IllegalStateException when the store is closed
     */
    Subscription subscribe(Consumer<? super StoreNotification> subscriber, int queueCapacity);

    /** {@link #subscribe(Consumer, int)} with a queue of {@link #DEFAULT_QUEUE_CAPACITY}. */
    default Subscription subscribe(Consumer<? super StoreNotification> subscriber) {
        return subscribe(subscriber, DEFAULT_QUEUE_CAPACITY);
    }

    /**
     * Closes every subscription and stops their threads; idempotent. The stored envelopes stay readable and
     * {@link #insert} keeps working; {@link #subscribe} then throws.
     */
    @Override
    void close();
}
