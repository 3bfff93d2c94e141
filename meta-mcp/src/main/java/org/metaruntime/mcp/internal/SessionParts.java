package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import java.util.Objects;
import org.metaruntime.mcp.McpClientOptions;

/**
 * The parts of one open session, as {@link SessionOpener} built them: the call window, the tool catalog, the rest of
 * the MCP surface, the notification listeners, the session's lifecycle, the server at the other end, and what the
 * server announced of itself. Immutable; the parts themselves are thread-safe.
 */
public record SessionParts(String moduleId, McpClientOptions options, CallWindow window, ToolCatalog catalog,
                           Surface surface, NotificationHub notifications, SessionLifecycle lifecycle, SessionPeer peer,
                           ServerAnnouncement server) {

    public SessionParts {
        Objects.requireNonNull(moduleId, "moduleId");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(catalog, "catalog");
        Objects.requireNonNull(surface, "surface");
        Objects.requireNonNull(notifications, "notifications");
        Objects.requireNonNull(lifecycle, "lifecycle");
        Objects.requireNonNull(peer, "peer");
        Objects.requireNonNull(server, "server");
    }

    /** These parts with the handshake's result. */
    SessionParts initialized(InitializeResult result) {
        return new SessionParts(moduleId, options, window, catalog, surface, notifications, lifecycle, peer,
                new ServerAnnouncement(result, null));
    }

    /** These parts with a modern server's {@code DiscoverResult}. */
    SessionParts discovered(JsonNode result) {
        return new SessionParts(moduleId, options, window, catalog, surface, notifications, lifecycle, peer,
                new ServerAnnouncement(null, result));
    }
}
