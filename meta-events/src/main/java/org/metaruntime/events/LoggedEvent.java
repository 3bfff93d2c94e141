package org.metaruntime.events;

import java.util.Objects;

/**
 * One row of an {@link EventLog}: the envelope, its log sequence number and the runtime instance that wrote
 * it. Immutable as long as the envelope's payload is not mutated.
 *
 * <pre>{@code
 * for (LoggedEvent row : log.query(EventQuery.all()).events()) {
 *     System.out.println(row.seq() + " " + row.json());
 * }
 * }</pre>
 *
 * @param seq        the log sequence number, at least 1, strictly increasing in the log
 * @param instanceId the runtime instance that appended it
 * @param loggedMs   when the log committed it (the writer's clock, milliseconds since the epoch)
 * @param json       the envelope exactly as {@link EventCodec#toJson(EventEnvelope)} wrote it
 * @param envelope   the envelope parsed back from {@code json}
 */
public record LoggedEvent(long seq, String instanceId, long loggedMs, String json,
                          EventEnvelope<UnifiedEvent> envelope) {

    /** Validates the row. */
    public LoggedEvent {
        Objects.requireNonNull(instanceId, "instanceId");
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(envelope, "envelope");
        if (seq < 1) {
            throw new IllegalArgumentException("seq must be at least 1: " + seq);
        }
    }
}
