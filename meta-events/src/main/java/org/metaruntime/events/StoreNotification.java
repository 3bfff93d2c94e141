package org.metaruntime.events;

import java.util.Objects;

/**
 * What a store subscription delivers: a new envelope, or a notice to re-read {@link EventStore#snapshot()}.
 * Values.
 *
 * <p>Every subscription first receives {@code ResyncRequired(INITIAL_SYNC, 0)}, then one {@link Envelope}
 * per insert (in insertion order). When its queue was full, the envelopes that did not fit are skipped
 * and, at the place of the gap, it receives {@code ResyncRequired(LAGGED, skipped)}.
 *
 * <pre>{@code
 * Subscription sub = store.subscribe(n -> {
 *     if (n instanceof StoreNotification.Envelope) {
 *         show(((StoreNotification.Envelope) n).envelope());
 *     } else {
 *         showAll(store.snapshot()); // initial sync, or envelopes were skipped
 *     }
 * });
 * }</pre>
 */
public sealed interface StoreNotification {

    /** The wire name of the notification type: {@code "envelope"} or {@code "resync_required"}. */
    String type();

    /** A newly inserted envelope (as stored, after the agent projection). */
    record Envelope(EventEnvelope<UnifiedEvent> envelope) implements StoreNotification {
        /** Validates the record. */
        public Envelope {
            Objects.requireNonNull(envelope, "envelope");
        }

        @Override
        public String type() {
            return "envelope";
        }
    }

    /**
     * The subscriber should re-read {@link EventStore#snapshot()}.
     *
     * @param reason  why
     * @param skipped how many envelopes were not delivered (0 for {@link Reason#INITIAL_SYNC})
     */
    record ResyncRequired(Reason reason, long skipped) implements StoreNotification {
        /** Validates the record. */
        public ResyncRequired {
            Objects.requireNonNull(reason, "reason");
            if (skipped < 0) {
                throw new IllegalArgumentException("skipped must not be negative: " + skipped);
            }
        }

        @Override
        public String type() {
            return "resync_required";
        }
    }

    /** Why a resync is required. */
    enum Reason {
        /** The subscription just started. Wire name {@code initial_sync}. */
        INITIAL_SYNC("initial_sync"),
        /** The subscriber fell behind its queue and missed envelopes. Wire name {@code lagged}. */
        LAGGED("lagged");

        private final String wireName;

        Reason(String wireName) {
            this.wireName = wireName;
        }

        /** {@code "initial_sync"} or {@code "lagged"}. */
        public String wireName() {
            return wireName;
        }
    }
}
