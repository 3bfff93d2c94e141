package org.metaruntime.events;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * One event with its identity, origin and time: the unit the runtime stores, orders and streams.
 *
 * <p>Immutable as long as the event it carries is not mutated (payload {@link JsonNode}s are shared, not
 * copied, and the runtime never mutates them). For {@link UnifiedEvent} envelopes the {@code source} must be
 * {@code "agent"} for an {@link UnifiedEvent.Agent} and {@code "module"} for an {@link UnifiedEvent.Module}.
 *
 * <pre>{@code
 * EventEnvelope<UnifiedEvent> ready = EventEnvelope.module("e1", 42, "search", "mcp.ready", payload);
 * String line = EventCodec.toJson(ready);
 * }</pre>
 *
 * @param eventId     the id given by the producer; not minted, not checked for uniqueness
 * @param source      {@code "agent"} or {@code "module"} for unified events
 * @param timestampMs milliseconds since the epoch, never negative
 * @param event       the event itself
 * @param <T>         the event type, usually {@link UnifiedEvent}
 */
public record EventEnvelope<T>(String eventId, String source, long timestampMs, T event) {

    /** The source of every {@link UnifiedEvent.Agent} envelope. */
    public static final String SOURCE_AGENT = "agent";
    /** The source of every {@link UnifiedEvent.Module} envelope. */
    public static final String SOURCE_MODULE = "module";

    /**
     * Validates the envelope.
     *
     * @throws IllegalArgumentException if {@code timestampMs} is negative or the source does not match the
     *                                  unified event variant
     */
    public EventEnvelope {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(event, "event");
        if (timestampMs < 0) {
            throw new IllegalArgumentException("timestampMs must not be negative: " + timestampMs);
        }
        if (event instanceof UnifiedEvent) {
            String expected = ((UnifiedEvent) event).expectedSource();
            if (!expected.equals(source)) {
                throw new IllegalArgumentException(
                        "source must be \"" + expected + "\" for this event, got \"" + source + "\"");
            }
        }
    }

    /** An agent envelope ({@code source = "agent"}); {@code payload} may be null. */
    public static EventEnvelope<UnifiedEvent> agent(
            String eventId, long timestampMs, String agentId, String eventType, JsonNode payload) {
        return new EventEnvelope<>(eventId, SOURCE_AGENT, timestampMs,
                new UnifiedEvent.Agent(agentId, eventType, payload));
    }

    /** A module envelope ({@code source = "module"}); a null {@code payload} is stored as JSON {@code null}. */
    public static EventEnvelope<UnifiedEvent> module(
            String eventId, long timestampMs, String module, String eventType, JsonNode payload) {
        return new EventEnvelope<>(eventId, SOURCE_MODULE, timestampMs,
                new UnifiedEvent.Module(new ModuleEvent(module, eventType, payload)));
    }

    /** This envelope with another event (same id, source and timestamp). */
    public <U> EventEnvelope<U> withEvent(U newEvent) {
        return new EventEnvelope<>(eventId, source, timestampMs, newEvent);
    }
}
