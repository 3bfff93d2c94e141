package org.metaruntime.mcp;

import java.util.Objects;

/**
 * How an MCP session ended. Immutable.
 *
 * <pre>{@code
 * connection.sessionEnd().thenAccept(end -> {
 *     if (!end.closedByHost()) {
 *         log.warn("module lost: {}", end.reason());
 *     }
 * });
 * }</pre>
 *
 * @param reason       one readable clause, e.g. "the server at http://127.0.0.1:3001/mcp cannot be reached
 *                     (connection refused)"
 * @param closedByHost whether the host closed the connection (never a failure)
 */
public record McpSessionEnd(String reason, boolean closedByHost) {
    /** Validates the record. */
    public McpSessionEnd {
        Objects.requireNonNull(reason, "reason");
    }
}
