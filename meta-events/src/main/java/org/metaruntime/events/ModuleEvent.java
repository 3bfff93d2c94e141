package org.metaruntime.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.Objects;

/**
 * An event a module emitted (or one the runtime generated about a module, such as {@code mcp.ready}).
 *
 * <p>The payload is required and may be JSON {@code null}: a Java {@code null} is stored as
 * {@link NullNode#getInstance()}, so {@link #payload()} is never null. Immutable as long as the payload is
 * not mutated.
 *
 * @param module    the module id
 * @param eventType the event type, for example {@code ready} or {@code supervisor.warning}
 * @param payload   any JSON value, never null
 */
public record ModuleEvent(String module, String eventType, JsonNode payload) {

    /** Validates the event and stores a null payload as JSON {@code null}. */
    public ModuleEvent {
        Objects.requireNonNull(module, "module");
        Objects.requireNonNull(eventType, "eventType");
        if (payload == null) {
            payload = NullNode.getInstance();
        }
    }
}
