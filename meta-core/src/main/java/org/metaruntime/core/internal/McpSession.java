package org.metaruntime.core.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.metaruntime.mcp.McpCallOptions;
import org.metaruntime.mcp.McpConnection;
import org.metaruntime.mcp.McpSurfaceRequest;
import org.metaruntime.mcp.McpToolCall;
import org.metaruntime.supervisor.internal.Failures;

/**
 * The MCP session of a module's child, as the runtime uses it for routed calls, {@code UnifiedRuntime.mcp(id)} and
 * health-check pings: a real {@link McpConnection} ({@link #of}), or an in-process fake. Every failure is an
 * {@code McpBoundaryException}, thrown or in a future. Thread-safe.
 */
public interface McpSession {

    /** The module served. */
    String moduleId();

    /** Whether the session still takes requests. */
    boolean isOpen();

    /** The protocol version in use with the current process or connection (see {@link McpConnection#protocolVersion()}). */
    String protocolVersion();

    /** The server's capabilities as it announced them (see {@link McpConnection#serverCapabilities()}). */
    default McpSchema.ServerCapabilities serverCapabilities() {
        return null;
    }

    /** Any request to the server; its result as sent (see {@link McpConnection#request}). */
    default JsonNode request(String method, ObjectNode params, Duration timeout) {
        throw new UnsupportedOperationException(method + " is not sent to this module");
    }

    /** {@link #request} without blocking (see {@link McpConnection#requestAsync}); by default it answers on this thread. */
    default CompletableFuture<JsonNode> requestAsync(String method, ObjectNode params, Duration timeout) {
        return Failures.answered(() -> request(method, params, timeout));
    }

    /** The tools as the server listed them, in server order. */
    List<McpSchema.Tool> toolDescriptors();

    /**
     * The tools once the list is re-read after every {@code tools/list_changed} received so far (see
     * {@link McpConnection#toolDescriptorsAsync()}); by default {@link #toolDescriptors()} now.
     */
    default CompletableFuture<List<McpSchema.Tool>> toolDescriptorsAsync() {
        return CompletableFuture.completedFuture(toolDescriptors());
    }

    /** Starts a {@code tools/call}; never throws for a failure of the call (its futures carry it). */
    McpToolCall startCall(String tool, JsonNode arguments, McpCallOptions options);

    /** {@code ping}: completes when the server answered (a JSON-RPC error is an answer). */
    CompletableFuture<Void> pingAsync(Duration timeout);

    /** One request of the surface beyond tools (see {@link McpConnection#surface}). */
    <T> T surface(McpSurfaceRequest<T> request, Duration timeout);

    /** {@link #surface} without blocking (see {@link McpConnection#surfaceAsync}); by default it answers on this thread. */
    default <T> CompletableFuture<T> surfaceAsync(McpSurfaceRequest<T> request, Duration timeout) {
        return Failures.answered(() -> surface(request, timeout));
    }

    /** Forwards the server's notifications to {@code listener} for the rest of the session. */
    void forwardNotifications(Consumer<? super McpSchema.JSONRPCNotification> listener);

    /** The session of a real connection. */
    static McpSession of(McpConnection connection) {
        return new ConnectionSession(connection);
    }
}
