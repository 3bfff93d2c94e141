package org.metaruntime.events.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.NormalizationError;
import org.metaruntime.events.NormalizationException;
import org.metaruntime.events.UnifiedEvent;

/** Reads envelopes from JSON trees: the envelope form, the flat form, and the source check. Stateless and thread-safe. */
public final class EnvelopeReader {

    private EnvelopeReader() {
    }

    /** The envelope form only (the codec's input); errors name the envelope's fields. */
    public static EventEnvelope<UnifiedEvent> readEnvelopeForm(String text) {
        JsonNode root = Json.parseOrNull(text);
        try {
            return checkSource(envelopeForm(objectOrFail(root)));
        } catch (Failure f) {
            throw new NormalizationException(f.error);
        }
    }

    /** Normalisation: the envelope form first, then the flat form, then the source check. */
    public static EventEnvelope<UnifiedEvent> normalize(String line) {
        JsonNode root = Json.parseOrNull(line);
        try {
            JsonNode object = objectOrFail(root);
            Parsed parsed;
            try {
                parsed = envelopeForm(object);
            } catch (Failure notEnvelope) {
                parsed = flatForm(object);
            }
            return checkSource(parsed);
        } catch (Failure f) {
            throw new NormalizationException(f.error);
        }
    }

    private static JsonNode objectOrFail(JsonNode root) throws Failure {
        if (root == null) {
            throw new Failure(new NormalizationError.InvalidJson());
        }
        if (!root.isObject()) {
            throw new Failure(new NormalizationError.InvalidSchema());
        }
        return root;
    }

    private static Parsed envelopeForm(JsonNode root) throws Failure {
        String eventId = string(root, "event_id");
        String source = string(root, "source");
        long timestampMs = timestamp(root);
        JsonNode event = root.get("event");
        if (event == null) {
            throw new Failure(new NormalizationError.MissingField("event"));
        }
        if (!event.isObject()) {
            throw new Failure(new NormalizationError.InvalidFieldType("event"));
        }
        String kind = string(event, "kind");
        UnifiedEvent unified;
        if ("module".equals(kind)) {
            unified = moduleEvent(event);
        } else if ("agent".equals(kind)) {
            unified = agentEvent(event);
        } else {
            throw new Failure(new NormalizationError.InvalidFieldType("kind"));
        }
        return new Parsed(eventId, source, timestampMs, unified);
    }

    private static Parsed flatForm(JsonNode root) throws Failure {
        String eventId = string(root, "event_id");
        String source = string(root, "source");
        long timestampMs = timestamp(root);
        UnifiedEvent unified = root.has("module") ? moduleEvent(root) : agentEvent(root);
        return new Parsed(eventId, source, timestampMs, unified);
    }

    private static UnifiedEvent moduleEvent(JsonNode node) throws Failure {
        String module = string(node, "module");
        String eventType = string(node, "event_type");
        JsonNode payload = node.get("payload");
        if (payload == null) {
            throw new Failure(new NormalizationError.MissingField("payload"));
        }
        return new UnifiedEvent.Module(module, eventType, payload.isNull() ? NullNode.getInstance() : payload);
    }

    private static UnifiedEvent agentEvent(JsonNode node) throws Failure {
        String agentId = string(node, "agent_id");
        String eventType = string(node, "event_type");
        return new UnifiedEvent.Agent(agentId, eventType, node.get("payload"));
    }

    private static EventEnvelope<UnifiedEvent> checkSource(Parsed parsed) throws Failure {
        String expected = parsed.event.expectedSource();
        if (!expected.equals(parsed.source)) {
            throw new Failure(new NormalizationError.SourceMismatch(expected, parsed.source));
        }
        return new EventEnvelope<>(parsed.eventId, parsed.source, parsed.timestampMs, parsed.event);
    }

    private static String string(JsonNode node, String field) throws Failure {
        JsonNode value = node.get(field);
        if (value == null) {
            throw new Failure(new NormalizationError.MissingField(field));
        }
        if (!value.isTextual()) {
            throw new Failure(new NormalizationError.InvalidFieldType(field));
        }
        return value.textValue();
    }

    private static long timestamp(JsonNode node) throws Failure {
        JsonNode value = node.get("timestamp_ms");
        if (value == null) {
            throw new Failure(new NormalizationError.MissingField("timestamp_ms"));
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong() || value.longValue() < 0) {
            throw new Failure(new NormalizationError.InvalidFieldType("timestamp_ms"));
        }
        return value.longValue();
    }

    private record Parsed(String eventId, String source, long timestampMs, UnifiedEvent event) {
    }

    /** A rejection, without a stack trace: it only carries the error out of the readers. */
    private static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient NormalizationError error;

        Failure(NormalizationError error) {
            super(null, null, false, false);
            this.error = error;
        }
    }
}
