package org.metaruntime.events;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.metaruntime.events.internal.Json;

/**
 * The projection of upstream {@link MobEvent}s to {@link MobStructuralEventEnvelope}s, and their JSON form.
 *
 * <ul>
 *   <li>{@code eventId} is {@code "mob-evt-<cursor>"}; cursor, mob, timestamp, run, step, member and labels
 *       are preserved.</li>
 *   <li>{@code kind} is the snake_case form of the upstream kind name ({@code MemberSpawned} →
 *       {@code member_spawned}); the set is open, unknown kinds pass through.</li>
 *   <li>{@code data} is the whole kind payload. A {@code member_spawned} payload's {@code creation} passes
 *       through untouched; when it has none (an older journal) it gets {@code "creation":{"creation_id":null,
 *       "provenance":{"kind":"legacy_unknown"}}}. Projection never invents a creation token and never turns
 *       missing ancestry into a proven root.</li>
 * </ul>
 *
 * <p>Stateless and thread-safe; the upstream payload is never mutated.
 *
 * <pre>{@code
 * MobStructuralEventEnvelope e = MobEventProjection.project(upstream);
 * String json = MobEventProjection.toJson(e);
 * }</pre>
 */
public final class MobEventProjection {

    /** The kind whose payload carries member creation facts. */
    public static final String MEMBER_SPAWNED = "member_spawned";
    /** The provenance kind of a member whose journal has no creation record. */
    public static final String LEGACY_UNKNOWN = "legacy_unknown";

    private MobEventProjection() {
    }

    /** Projects one upstream event. */
    public static MobStructuralEventEnvelope project(MobEvent event) {
        Objects.requireNonNull(event, "event");
        String kind = snakeCase(event.kind());
        JsonNode data = MEMBER_SPAWNED.equals(kind) ? withCreationFacts(event.payload()) : event.payload();
        return new MobStructuralEventEnvelope("mob-evt-" + event.cursor(), event.cursor(), event.mobId(),
                event.timestampMs(), kind, event.runId(), event.stepId(), event.agentIdentity(),
                event.mobLabels(), event.runLabels(), data);
    }

    /**
     * The snake_case form of a kind name: {@code MemberSpawned} → {@code member_spawned},
     * {@code HTTPRouteAdded} → {@code http_route_added}; snake_case names are unchanged, {@code -} and spaces
     * become {@code _}.
     */
    public static String snakeCase(String name) {
        Objects.requireNonNull(name, "name");
        StringBuilder out = new StringBuilder(name.length() + 8);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '-' || c == ' ') {
                out.append('_');
            } else if (Character.isUpperCase(c)) {
                boolean afterLower = i > 0 && (Character.isLowerCase(name.charAt(i - 1))
                        || Character.isDigit(name.charAt(i - 1)));
                boolean acronymEnd = i > 0 && Character.isUpperCase(name.charAt(i - 1))
                        && i + 1 < name.length() && Character.isLowerCase(name.charAt(i + 1));
                if ((afterLower || acronymEnd) && out.length() > 0 && out.charAt(out.length() - 1) != '_') {
                    out.append('_');
                }
                out.append(Character.toLowerCase(c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static JsonNode withCreationFacts(JsonNode payload) {
        if (!payload.isObject()) {
            return payload;
        }
        JsonNode creation = payload.get("creation");
        if (creation != null && !creation.isNull()) {
            return payload;
        }
        ObjectNode legacy = JsonNodeFactory.instance.objectNode();
        legacy.putNull("creation_id");
        legacy.putObject("provenance").put("kind", LEGACY_UNKNOWN);
        ObjectNode copy = ((ObjectNode) payload).deepCopy();
        copy.set("creation", legacy);
        return copy;
    }

    /** The JSON form of {@code event}, on one line, keys in a fixed order. */
    public static String toJson(MobStructuralEventEnvelope event) {
        Objects.requireNonNull(event, "event");
        return Json.write(gen -> {
            gen.writeStartObject();
            gen.writeStringField("event_id", event.eventId());
            gen.writeNumberField("cursor", event.cursor());
            gen.writeStringField("mob_id", event.mobId());
            gen.writeNumberField("timestamp_ms", event.timestampMs());
            gen.writeStringField("kind", event.kind());
            gen.writeStringField("run_id", event.runId());
            gen.writeStringField("step_id", event.stepId());
            gen.writeStringField("agent_identity", event.agentIdentity());
            writeLabels(gen, "mob_labels", event.mobLabels());
            writeLabels(gen, "run_labels", event.runLabels());
            gen.writeFieldName("data");
            Json.writeTree(gen, event.data());
            gen.writeEndObject();
        });
    }

    /**
     * Parses the JSON form written by {@link #toJson}.
     *
     * @throws IllegalArgumentException when {@code json} is not that form
     */
    public static MobStructuralEventEnvelope fromJson(String json) {
        JsonNode node = Json.parseOrNull(Objects.requireNonNull(json, "json"));
        if (node == null || !node.isObject() || !node.path("cursor").canConvertToLong()
                || !node.path("timestamp_ms").canConvertToLong() || !node.path("event_id").isTextual()
                || !node.path("mob_id").isTextual() || !node.path("kind").isTextual() || !node.has("data")) {
            throw new IllegalArgumentException("not a structural mob event: " + abbreviate(json));
        }
        return new MobStructuralEventEnvelope(node.get("event_id").textValue(), node.get("cursor").longValue(),
                node.get("mob_id").textValue(), node.get("timestamp_ms").longValue(), node.get("kind").textValue(),
                node.path("run_id").textValue(), node.path("step_id").textValue(),
                node.path("agent_identity").textValue(), labels(node.get("mob_labels")),
                labels(node.get("run_labels")), node.get("data"));
    }

    private static void writeLabels(JsonGenerator gen, String field, Map<String, String> labels)
            throws IOException {
        gen.writeObjectFieldStart(field);
        for (Map.Entry<String, String> label : labels.entrySet()) {
            gen.writeStringField(label.getKey(), label.getValue());
        }
        gen.writeEndObject();
    }

    private static Map<String, String> labels(JsonNode node) {
        Map<String, String> labels = new LinkedHashMap<>();
        if (node != null && node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                labels.put(e.getKey(), e.getValue().asText());
            }
        }
        return labels;
    }

    private static String abbreviate(String text) {
        return text.length() <= 120 ? text : text.substring(0, 120) + "...";
    }
}
