package org.metaruntime.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;

/** Shared builders for the tests. */
final class TestEvents {

    static final ObjectMapper JSON = new ObjectMapper();

    private TestEvents() {
    }

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ObjectNode object() {
        return JSON.createObjectNode();
    }

    static EventEnvelope<UnifiedEvent> module(String id, long ts) {
        return EventEnvelope.module(id, ts, "m", "tick", object());
    }

    static EventEnvelope<UnifiedEvent> agent(String id, long ts) {
        return EventEnvelope.agent(id, ts, "a", AgentEventNames.TEXT_DELTA, null);
    }

    static NormalizationError errorOf(String line) {
        try {
            EventEnvelope<UnifiedEvent> envelope = EventNormalizer.normalize(line);
            throw new AssertionError("expected a NormalizationException, got " + envelope);
        } catch (NormalizationException e) {
            return e.error();
        }
    }
}
