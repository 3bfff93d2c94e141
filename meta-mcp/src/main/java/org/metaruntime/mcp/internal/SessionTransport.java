package org.metaruntime.mcp.internal;

import io.modelcontextprotocol.spec.McpClientTransport;

/**
 * The transport of one session, to a child's stdin and stdout ({@link ProcessClientTransport}) or over MCP Streamable
 * HTTP ({@link HttpClientTransport}): the SDK client session answers the server's requests through it and the call
 * window writes to it. Thread-safe.
 */
public interface SessionTransport extends McpClientTransport, CallWindow.Wire {

    /** The session ended: whatever the server still sends is dropped. */
    void shutdown();
}
