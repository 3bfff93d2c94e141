package org.metaruntime.events;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Objects;

/**
 * One event of an upstream mob-event ledger, as a host's {@link org.metaruntime.events.spi.MobEventSource}
 * delivers it. Immutable as long as {@code payload} is not mutated.
 *
 * <pre>{@code
 * MobEvent spawned = new MobEvent(7, "mob-1", 1_700_000_000_000L, "MemberSpawned", payload,
 *         null, null, "agent-a", Map.of("team", "blue"), Map.of());
 * }</pre>
 *
 * @param cursor        the ledger cursor, never negative, increasing along the ledger
 * @param mobId         the mob
 * @param timestampMs   when it happened, never negative
 * @param kind          the kind's name, as the ledger writes it ({@code MemberSpawned} or {@code member_spawned})
 * @param payload       the serialized kind payload
 * @param runId         the flow run, or null
 * @param stepId        the flow step, or null
 * @param agentIdentity the member, or null
 * @param mobLabels     the mob's labels, or null for none
 * @param runLabels     the run's labels, or null for none
 */
public record MobEvent(long cursor, String mobId, long timestampMs, String kind, JsonNode payload,
                       String runId, String stepId, String agentIdentity,
                       Map<String, String> mobLabels, Map<String, String> runLabels) {

    /** Validates the event and copies the labels. */
    public MobEvent {
        Objects.requireNonNull(mobId, "mobId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(payload, "payload");
        if (cursor < 0 || timestampMs < 0) {
            throw new IllegalArgumentException("cursor and timestampMs must not be negative: " + cursor
                    + ", " + timestampMs);
        }
        if (kind.isEmpty()) {
            throw new IllegalArgumentException("kind must not be empty");
        }
        mobLabels = mobLabels == null ? Map.of() : Map.copyOf(mobLabels);
        runLabels = runLabels == null ? Map.of() : Map.copyOf(runLabels);
    }
}
