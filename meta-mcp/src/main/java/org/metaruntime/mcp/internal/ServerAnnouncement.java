package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import org.metaruntime.mcp.McpProtocolEra;

/**
 * What a server announced of itself when the session opened: a legacy server's {@code initialize} result
 * ({@code init}), or a modern server's {@code server/discover} result ({@code discovered}); neither for a bare server.
 * Immutable.
 */
public record ServerAnnouncement(InitializeResult init, JsonNode discovered) {

    /** A bare server's: it announced nothing. */
    static final ServerAnnouncement NONE = new ServerAnnouncement(null, null);

    /** {@code "2026-07-28"} for a modern server, else the version agreed in {@code initialize} (null for a bare one). */
    public String protocolVersion() {
        return discovered != null ? Envelope.MODERN_VERSION : init == null ? null : init.protocolVersion();
    }

    /** The era the server is spoken to in: modern, or legacy (a bare server too). */
    public McpProtocolEra era() {
        return discovered != null ? McpProtocolEra.MODERN : McpProtocolEra.LEGACY;
    }

    /** The capabilities, extensions included (null for a bare server). */
    public McpSchema.ServerCapabilities capabilities() {
        if (discovered != null) {
            return Json.MCP_MAPPER.convertValue(discovered.path("capabilities"), McpSchema.ServerCapabilities.class);
        }
        return init == null ? null : init.capabilities();
    }

    /**
     * The server's name and version ({@code initialize}'s {@code serverInfo}, or the {@code _meta} of the
     * {@code server/discover} result); null when it sent none, and for a bare server.
     */
    public McpSchema.Implementation info() {
        if (discovered != null) {
            JsonNode info = discovered.path("_meta").get(Envelope.SERVER_INFO_KEY);
            return info == null || !info.isObject() ? null : Json.MCP_MAPPER.convertValue(info, McpSchema.Implementation.class);
        }
        return init == null ? null : init.serverInfo();
    }
}
