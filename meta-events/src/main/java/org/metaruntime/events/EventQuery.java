package org.metaruntime.events;

import java.util.Objects;

/**
 * One page request to an {@link EventLog}: the rows matching {@code filter} whose {@code seq} is greater than
 * {@code afterSeq}, in {@code seq} order, at most {@code limit} of them. Immutable and thread-safe.
 *
 * <pre>{@code
 * EventQuery q = EventQuery.builder().module("search").eventType("mcp.ready").limit(50).build();
 * EventPage page = log.query(q);
 * while (page.nextAfterSeq() != null) {
 *     page = log.query(q.withAfterSeq(page.nextAfterSeq()));
 * }
 * }</pre>
 *
 * @param filter   which envelopes (source, module, agent, event type, timestamp range)
 * @param afterSeq only rows after this sequence number; 0 for the first page
 * @param limit    at most this many rows, 1 to {@link #MAX_LIMIT}
 */
public record EventQuery(EventFilter filter, long afterSeq, int limit) {

    /** Rows per page when no limit is given. */
    public static final int DEFAULT_LIMIT = 100;
    /** The largest page. */
    public static final int MAX_LIMIT = 10_000;

    /**
     * Validates the query (its {@link EventFilter} refuses a negative time bound and {@code fromMs} after
     * {@code toMs}).
     *
     * @throws IllegalArgumentException if {@code afterSeq} is negative or {@code limit} is outside 1..10,000
     */
    public EventQuery {
        Objects.requireNonNull(filter, "filter");
        if (afterSeq < 0) {
            throw new IllegalArgumentException("afterSeq must not be negative: " + afterSeq);
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ": " + limit);
        }
    }

    /** The first page of everything, {@link #DEFAULT_LIMIT} rows. */
    public static EventQuery all() {
        return new EventQuery(EventFilter.all(), 0, DEFAULT_LIMIT);
    }

    /** A builder that starts from {@link #all()}. */
    public static Builder builder() {
        return new Builder();
    }

    /** This query, for the rows after {@code seq}. */
    public EventQuery withAfterSeq(long seq) {
        return new EventQuery(filter, seq, limit);
    }

    /** Builds an {@link EventQuery}; not thread-safe. */
    public static final class Builder {
        private final EventFilter.Builder filter = EventFilter.builder();
        private long afterSeq;
        private int limit = DEFAULT_LIMIT;

        private Builder() {
        }

        /** Only envelopes with this source ({@code "agent"} or {@code "module"}). */
        public Builder source(String source) {
            filter.source(source);
            return this;
        }

        /** Only module events of this module. */
        public Builder module(String module) {
            filter.module(module);
            return this;
        }

        /** Only agent events of this agent. */
        public Builder agentId(String agentId) {
            filter.agentId(agentId);
            return this;
        }

        /** Only events of this type. */
        public Builder eventType(String eventType) {
            filter.eventType(eventType);
            return this;
        }

        /** Only envelopes whose {@code timestamp_ms} is at or after {@code fromMs}. */
        public Builder fromMs(long fromMs) {
            filter.fromMs(fromMs);
            return this;
        }

        /** Only envelopes whose {@code timestamp_ms} is at or before {@code toMs}. */
        public Builder toMs(long toMs) {
            filter.toMs(toMs);
            return this;
        }

        /** Only rows after this sequence number. */
        public Builder afterSeq(long afterSeq) {
            this.afterSeq = afterSeq;
            return this;
        }

        /** At most this many rows (default 100, at most 10,000). */
        public Builder limit(int limit) {
            this.limit = limit;
            return this;
        }

        /**
         * The query.
         *
         * @throws IllegalArgumentException for a negative time bound, {@code fromMs} after {@code toMs}, a negative
         *                                  {@code afterSeq} or a {@code limit} outside 1..10,000
         */
        public EventQuery build() {
            return new EventQuery(filter.build(), afterSeq, limit);
        }
    }
}
