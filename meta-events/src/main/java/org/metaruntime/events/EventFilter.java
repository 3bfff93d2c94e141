package org.metaruntime.events;

import java.util.Objects;

/**
 * Which envelopes {@link EventStore#query(EventFilter)} returns. A null criterion matches anything; a time
 * range is inclusive at both ends. Immutable and thread-safe.
 *
 * <pre>{@code
 * EventFilter failures = EventFilter.builder().agentId("a1").eventType("run_failed").fromMs(start).build();
 * List<EventEnvelope<UnifiedEvent>> found = store.query(failures);
 * }</pre>
 *
 * @param source    {@code "agent"} or {@code "module"}, or null for both
 * @param module    only module events of this module, or null
 * @param agentId   only agent events of this agent, or null
 * @param eventType only events of this type, or null
 * @param fromMs    the earliest timestamp, inclusive (0 for no bound)
 * @param toMs      the latest timestamp, inclusive ({@link Long#MAX_VALUE} for no bound)
 */
public record EventFilter(String source, String module, String agentId, String eventType, long fromMs, long toMs) {

    private static final EventFilter ALL = new EventFilter(null, null, null, null, 0, Long.MAX_VALUE);

    /**
     * Validates the filter.
     *
     * @throws IllegalArgumentException if a time bound is negative or {@code fromMs} is after {@code toMs}
     */
    public EventFilter {
        if (fromMs < 0 || toMs < 0) {
            throw new IllegalArgumentException("time bounds must not be negative: " + fromMs + ".." + toMs);
        }
        if (fromMs > toMs) {
            throw new IllegalArgumentException("fromMs must not be after toMs: " + fromMs + " > " + toMs);
        }
    }

    /** The filter that matches every envelope. */
    public static EventFilter all() {
        return ALL;
    }

    /** A builder that starts from {@link #all()}. */
    public static Builder builder() {
        return new Builder();
    }

    /** Whether {@code envelope} passes this filter. */
    public boolean matches(EventEnvelope<UnifiedEvent> envelope) {
        Objects.requireNonNull(envelope, "envelope");
        if (envelope.timestampMs() < fromMs || envelope.timestampMs() > toMs) {
            return false;
        }
        if (source != null && !source.equals(envelope.source())) {
            return false;
        }
        UnifiedEvent event = envelope.event();
        if (eventType != null && !eventType.equals(event.eventType())) {
            return false;
        }
        if (module != null && !(event instanceof UnifiedEvent.Module
                && module.equals(((UnifiedEvent.Module) event).event().module()))) {
            return false;
        }
        return agentId == null || event instanceof UnifiedEvent.Agent
                && agentId.equals(((UnifiedEvent.Agent) event).agentId());
    }

    /** Builds an {@link EventFilter}; not thread-safe. */
    public static final class Builder {
        private String source;
        private String module;
        private String agentId;
        private String eventType;
        private long fromMs;
        private long toMs = Long.MAX_VALUE;

        private Builder() {
        }

        /** Only envelopes with this source ({@code "agent"} or {@code "module"}). */
        public Builder source(String source) {
            this.source = Objects.requireNonNull(source, "source");
            return this;
        }

        /** Only module events of this module. */
        public Builder module(String module) {
            this.module = Objects.requireNonNull(module, "module");
            return this;
        }

        /** Only agent events of this agent. */
        public Builder agentId(String agentId) {
            this.agentId = Objects.requireNonNull(agentId, "agentId");
            return this;
        }

        /** Only events of this type. */
        public Builder eventType(String eventType) {
            this.eventType = Objects.requireNonNull(eventType, "eventType");
            return this;
        }

        /** Only envelopes at or after {@code fromMs}. */
        public Builder fromMs(long fromMs) {
            this.fromMs = fromMs;
            return this;
        }

        /** Only envelopes at or before {@code toMs}. */
        public Builder toMs(long toMs) {
            this.toMs = toMs;
            return this;
        }

        /**
         * The filter.
         *
         * @throws IllegalArgumentException for a negative time bound or {@code fromMs} after {@code toMs}
         */
        public EventFilter build() {
            return new EventFilter(source, module, agentId, eventType, fromMs, toMs);
        }
    }
}
