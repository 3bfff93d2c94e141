package org.metaruntime.events;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Objects;
import org.metaruntime.events.internal.EnvelopeReader;
import org.metaruntime.events.internal.Json;

/**
 * The JSON form of envelopes: snake_case keys, a {@code kind} tag, keys in a fixed order.
 *
 * <pre>{@code
 * {"event_id":"e1","source":"module","timestamp_ms":42,"event":{"kind":"module","module":"m","event_type":"ready","payload":{}}}
 * {"event_id":"e2","source":"agent","timestamp_ms":43,"event":{"kind":"agent","agent_id":"a","event_type":"run_started","payload":{}}}
 * }</pre>
 *
 * <p>An agent payload is written when present and omitted when absent; a module payload is always written
 * (possibly {@code null}). Non-ASCII text is written unescaped. Serialise → parse → serialise is
 * byte-identical. Stateless and thread-safe.
 *
 * <pre>{@code
 * String line = EventCodec.toJson(envelope);
 * EventEnvelope<UnifiedEvent> back = EventCodec.fromJson(line);   // equals envelope
 * }</pre>
 */
public final class EventCodec {

    private EventCodec() {
    }

    /** The JSON form of {@code envelope}, on one line. */
    public static String toJson(EventEnvelope<UnifiedEvent> envelope) {
        Objects.requireNonNull(envelope, "envelope");
        return Json.write(gen -> {
            gen.writeStartObject();
            gen.writeStringField("event_id", envelope.eventId());
            gen.writeStringField("source", envelope.source());
            gen.writeNumberField("timestamp_ms", envelope.timestampMs());
            gen.writeFieldName("event");
            writeEvent(gen, envelope.event());
            gen.writeEndObject();
        });
    }

    /** The JSON form of a bare event (the {@code event} member of an envelope). */
    public static String toJson(UnifiedEvent event) {
        Objects.requireNonNull(event, "event");
        return Json.write(gen -> writeEvent(gen, event));
    }

    /**
     * Parses the envelope form (unknown extra fields are ignored). Unlike {@link EventNormalizer} it does
     * not accept the flat form.
     *
     * @throws NormalizationException when {@code json} is not a valid envelope
     */
    public static EventEnvelope<UnifiedEvent> fromJson(String json) {
        Objects.requireNonNull(json, "json");
        return EnvelopeReader.readEnvelopeForm(json);
    }

    private static void writeEvent(JsonGenerator gen, UnifiedEvent event) throws IOException {
        gen.writeStartObject();
        if (event instanceof UnifiedEvent.Module) {
            ModuleEvent module = ((UnifiedEvent.Module) event).event();
            gen.writeStringField("kind", "module");
            gen.writeStringField("module", module.module());
            gen.writeStringField("event_type", module.eventType());
            gen.writeFieldName("payload");
            Json.writeTree(gen, module.payload());
        } else {
            UnifiedEvent.Agent agent = (UnifiedEvent.Agent) event;
            gen.writeStringField("kind", "agent");
            gen.writeStringField("agent_id", agent.agentId());
            gen.writeStringField("event_type", agent.eventType());
            JsonNode payload = agent.payload();
            if (payload != null) {
                gen.writeFieldName("payload");
                Json.writeTree(gen, payload);
            }
        }
        gen.writeEndObject();
    }
}
