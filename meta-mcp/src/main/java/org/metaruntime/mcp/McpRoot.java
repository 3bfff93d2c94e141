package org.metaruntime.mcp;

import java.util.Objects;

/**
 * A root the host exposes to MCP servers, returned to a server's {@code roots/list} request.
 * Immutable and thread-safe.
 *
 * <pre>{@code
 * McpRoot root = new McpRoot("file:///srv/data", "data");
 * }</pre>
 *
 * @param uri  the root's URI (for example {@code file:///srv/data}); never blank
 * @param name a human-readable name, or {@code null} for none
 */
public record McpRoot(String uri, String name) {
    /**
     * Validates the root.
     *
     * @throws IllegalArgumentException if {@code uri} is blank
     */
    public McpRoot {
        Objects.requireNonNull(uri, "uri");
        if (uri.isBlank()) {
            throw new IllegalArgumentException("uri must not be blank");
        }
    }
}
