package org.metaruntime.core.testing;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A tool of a {@link FakeMcpModule}: gets the call's arguments, returns the payload. Throwing fails the call with
 * {@code McpBoundaryError.ToolCallFailed} whose reason is the exception's message (like an MCP result with
 * {@code isError: true}). It runs on the runtime's executor and may block; the caller's timeout still applies.
 * Concurrent calls run it on several threads at once, so it must be thread-safe.
 */
@FunctionalInterface
public interface FakeTool {
    JsonNode call(JsonNode arguments) throws Exception;
}
