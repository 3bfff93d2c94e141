package org.metaruntime.mcp;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of a successful startup probe: the server's tool names, sorted, and the open connection.
 * The caller owns the connection (keep it for {@link McpSessionMode#PERSISTENT}, close it for
 * {@link McpSessionMode#PER_CALL}). Immutable, and thread-safe as far as the connection is.
 *
 * <pre>{@code
 * McpProbeResult probe = McpProbe.probe(spec, options, Duration.ofSeconds(30));
 * List<String> tools = probe.tools();
 * probe.connection().close();
 * }</pre>
 *
 * @param tools      tool names in natural order
 * @param connection the initialized connection the tools were listed on
 */
public record McpProbeResult(List<String> tools, McpConnection connection) {
    /** Copies the tool names and validates the connection. */
    public McpProbeResult {
        tools = List.copyOf(tools);
        Objects.requireNonNull(connection, "connection");
    }
}
