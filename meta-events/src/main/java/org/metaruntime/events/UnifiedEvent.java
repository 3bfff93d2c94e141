package org.metaruntime.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.Objects;

/**
 * An event from an agent or from a module: the two variants of the merged event stream.
 *
 * <p>Values; immutable as long as their payloads are not mutated. Match on the variant:
 *
 * <pre>{@code
 * if (envelope.event() instanceof UnifiedEvent.Module m) {
 *     log(m.event().module(), m.eventType());
 * }
 * }</pre>
 */
public sealed interface UnifiedEvent {

    /** The event type: an agent event name such as {@code run_started}, or a module event type. */
    String eventType();

    /** The envelope source this variant requires: {@code "agent"} or {@code "module"}. */
    String expectedSource();

    /**
     * An agent event. The {@code payload} is optional: {@code null} when absent (a JSON {@code null} payload
     * is the same as an absent one). When present it is never dropped.
     *
     * @param agentId   the agent that emitted it
     * @param eventType an agent event name, see {@link AgentEventNames}
     * @param payload   the payload, or null
     */
    record Agent(String agentId, String eventType, JsonNode payload) implements UnifiedEvent {
        /** Validates the event and turns a JSON {@code null} payload into an absent one. */
        public Agent {
            Objects.requireNonNull(agentId, "agentId");
            Objects.requireNonNull(eventType, "eventType");
            if (payload != null && payload.isNull()) {
                payload = null;
            }
        }

        @Override
        public String expectedSource() {
            return EventEnvelope.SOURCE_AGENT;
        }
    }

    /**
     * A module event.
     *
     * @param event the module event
     */
    record Module(ModuleEvent event) implements UnifiedEvent {
        /** Validates the event. */
        public Module {
            Objects.requireNonNull(event, "event");
        }

        /** A module event from its parts; a null payload is stored as {@link NullNode}. */
        public Module(String module, String eventType, JsonNode payload) {
            this(new ModuleEvent(module, eventType, payload));
        }

        @Override
        public String eventType() {
            return event.eventType();
        }

        @Override
        public String expectedSource() {
            return EventEnvelope.SOURCE_MODULE;
        }
    }
}
