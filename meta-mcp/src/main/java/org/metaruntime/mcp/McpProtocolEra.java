package org.metaruntime.mcp;

/**
 * Which era of MCP a module's server is spoken to in: the 2025 revisions, whose {@code initialize} handshake opens a
 * session, or revision {@code 2026-07-28}, which has no handshake and no session (every request carries the protocol
 * version and the client's capabilities in its {@code _meta}).
 *
 * <pre>{@code
 * McpClientOptions options = McpClientOptions.builder().protocolEra(McpProtocolEra.MODERN).build();
 * }</pre>
 */
public enum McpProtocolEra {
    /**
     * Probe each new server process (and a remote server) with {@code server/discover}: a server offering
     * {@code 2026-07-28} is spoken to in that revision; any other answer, an error, silence within the probe bound, or
     * an exit makes it a legacy server, which gets {@code initialize} (a process that exited on the probe is started
     * again and gets no probe).
     */
    AUTO,
    /** {@code initialize} only, as a 2025 client. */
    LEGACY,
    /** {@code server/discover} only: a server that does not offer {@code 2026-07-28} fails the startup. */
    MODERN
}
