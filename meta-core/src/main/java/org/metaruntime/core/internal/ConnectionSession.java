package org.metaruntime.core.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.metaruntime.mcp.McpCallOptions;
import org.metaruntime.mcp.McpConnection;
import org.metaruntime.mcp.McpSurfaceRequest;
import org.metaruntime.mcp.McpToolCall;

/** {@link McpSession} over a real {@link McpConnection} (a stdio server process, or a remote session). Thread-safe. */
record ConnectionSession(McpConnection connection) implements McpSession {

    ConnectionSession {
        Objects.requireNonNull(connection, "connection");
    }

    @Override
    public String moduleId() {
        return connection.moduleId();
    }

    @Override
    public boolean isOpen() {
        return connection.isOpen();
    }

    @Override
    public String protocolVersion() {
        return connection.protocolVersion();
    }

    @Override
    public McpSchema.ServerCapabilities serverCapabilities() {
        return connection.serverCapabilities();
    }

    @Override
    public JsonNode request(String method, ObjectNode params, Duration timeout) {
        return connection.request(method, params, timeout);
    }

    @Override
    public CompletableFuture<JsonNode> requestAsync(String method, ObjectNode params, Duration timeout) {
        return connection.requestAsync(method, params, timeout);
    }

    @Override
    public List<McpSchema.Tool> toolDescriptors() {
        return connection.toolDescriptors();
    }

    @Override
    public CompletableFuture<List<McpSchema.Tool>> toolDescriptorsAsync() {
        return connection.toolDescriptorsAsync();
    }

    @Override
    public McpToolCall startCall(String tool, JsonNode arguments, McpCallOptions options) {
        return connection.startCall(tool, arguments, options);
    }

    @Override
    public CompletableFuture<Void> pingAsync(Duration timeout) {
        return connection.pingAsync(timeout);
    }

    @Override
    public <T> T surface(McpSurfaceRequest<T> request, Duration timeout) {
        return connection.surface(request, timeout);
    }

    @Override
    public <T> CompletableFuture<T> surfaceAsync(McpSurfaceRequest<T> request, Duration timeout) {
        return connection.surfaceAsync(request, timeout);
    }

    @Override
    public void forwardNotifications(Consumer<? super McpSchema.JSONRPCNotification> listener) {
        connection.subscribeNotifications(listener);
    }
}
