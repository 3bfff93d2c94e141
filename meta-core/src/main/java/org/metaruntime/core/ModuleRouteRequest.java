package org.metaruntime.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.Objects;

/**
 * One call to route to a module: for MCP, {@code method} is the tool name and {@code params} its arguments;
 * an event-line module is not sent either (it is spawned afresh and its first event answers).
 *
 * <p>Immutable (the caller must not mutate {@code params} afterwards) and thread-safe.
 *
 * @param moduleId the module
 * @param method   the tool / flow name
 * @param params   the arguments; {@code null} is taken as JSON {@code null}
 */
public record ModuleRouteRequest(String moduleId, String method, JsonNode params) {
    public ModuleRouteRequest {
        Objects.requireNonNull(moduleId, "moduleId");
        Objects.requireNonNull(method, "method");
        params = params == null ? NullNode.getInstance() : params;
    }
}
