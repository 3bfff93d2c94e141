package org.metaruntime.core;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * The answer of a routed call.
 *
 * <p>Immutable and thread-safe (do not mutate {@code payload}).
 *
 * @param moduleId the module that answered
 * @param method   the method of the request
 * @param payload  the tool result (MCP) or the first event's payload (event-line)
 */
public record ModuleRouteResponse(String moduleId, String method, JsonNode payload) {
    public ModuleRouteResponse {
        Objects.requireNonNull(moduleId, "moduleId");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(payload, "payload");
    }
}
