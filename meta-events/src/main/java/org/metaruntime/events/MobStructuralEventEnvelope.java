package org.metaruntime.events;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A structural mob event as the runtime exposes it: projected from an upstream {@link MobEvent} by
 * {@link MobEventProjection}. Immutable as long as {@code data} is not mutated.
 *
 * <p>JSON form ({@link MobEventProjection#toJson}): {@code {"event_id":"mob-evt-7","cursor":7,"mob_id":"m",
 * "timestamp_ms":42,"kind":"member_spawned","run_id":null,"step_id":null,"agent_identity":null,
 * "mob_labels":{},"run_labels":{},"data":{...}}}.
 *
 * <pre>{@code
 * MobStructuralEventEnvelope e = MobEventProjection.project(upstream);
 * if (e.kind().equals("member_spawned")) {
 *     String creationId = e.data().path("creation").path("creation_id").textValue();   // null for legacy
 * }
 * }</pre>
 *
 * @param eventId       {@code "mob-evt-<cursor>"}
 * @param cursor        the upstream cursor, never negative
 * @param mobId         the mob
 * @param timestampMs   the upstream timestamp, never negative
 * @param kind          the snake_case kind name (an open set: unknown kinds pass through)
 * @param runId         the flow run, or null
 * @param stepId        the flow step, or null
 * @param agentIdentity the member, or null
 * @param mobLabels     the mob's labels, sorted by key
 * @param runLabels     the run's labels, sorted by key
 * @param data          the whole kind payload
 */
public record MobStructuralEventEnvelope(String eventId, long cursor, String mobId, long timestampMs, String kind,
                                         String runId, String stepId, String agentIdentity,
                                         Map<String, String> mobLabels, Map<String, String> runLabels,
                                         JsonNode data) {

    /** Validates the envelope and copies the labels into sorted, unmodifiable maps. */
    public MobStructuralEventEnvelope {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(mobId, "mobId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(data, "data");
        if (cursor < 0 || timestampMs < 0) {
            throw new IllegalArgumentException("cursor and timestampMs must not be negative: " + cursor
                    + ", " + timestampMs);
        }
        mobLabels = sorted(mobLabels);
        runLabels = sorted(runLabels);
    }

    private static Map<String, String> sorted(Map<String, String> labels) {
        return labels == null || labels.isEmpty() ? Map.of()
                : Collections.unmodifiableMap(new TreeMap<>(labels));
    }
}
