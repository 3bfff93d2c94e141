package org.metaruntime.core.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;
import org.metaruntime.core.CallOptions;
import org.metaruntime.core.McpModule;
import org.metaruntime.events.Subscription;
import org.metaruntime.mcp.McpSurfaceRequest;
import org.metaruntime.supervisor.internal.Failures;

/**
 * {@link McpModule} over the runtime: a tool call takes the path of every call ({@link CallRouter#startCall}); each
 * other operation takes the module's current session through the checks of a call ({@link CallRouter#session}) and
 * maps failures like a routed call. Thread-safe.
 */
public final class RuntimeMcpModule implements McpModule {

    private final String moduleId;
    private final CallRouter calls;

    public RuntimeMcpModule(String moduleId, CallRouter calls) {
        this.moduleId = Objects.requireNonNull(moduleId, "moduleId");
        this.calls = Objects.requireNonNull(calls, "calls");
    }

    private <T> T use(String operation, Function<CallRouter.Session, T> op) {
        CallRouter.Session session = calls.session(moduleId, operation);
        try {
            return op.apply(session);
        } catch (RuntimeException e) {
            throw CallRouter.toRouteException(moduleId, e);
        } finally {
            calls.ended(session);
        }
    }

    @Override
    public String moduleId() {
        return moduleId;
    }

    @Override
    public String protocolVersion() {
        return use("protocol_version", session -> session.server().protocolVersion());
    }

    @Override
    public McpSchema.ServerCapabilities serverCapabilities() {
        return use("server_capabilities", session -> session.server().serverCapabilities());
    }

    @Override
    public JsonNode request(String method, ObjectNode params) {
        return use(method, s -> s.server().request(method, params, s.timeout()));
    }

    @Override
    public CompletableFuture<JsonNode> requestAsync(String method, ObjectNode params) {
        return useAsync(method, s -> s.server().requestAsync(method, params, s.timeout()));
    }

    @Override
    public List<McpSchema.Tool> tools() {
        return use("tools", session -> session.server().toolDescriptors());
    }

    @Override
    public CompletableFuture<List<McpSchema.Tool>> toolsAsync() {
        return useAsync("tools", session -> session.server().toolDescriptorsAsync());
    }

    /** {@link #use} without blocking: {@code op} runs once the module's session is there. */
    private <T> CompletableFuture<T> useAsync(String operation, Function<CallRouter.Session, CompletableFuture<T>> op) {
        return calls.sessionAsync(moduleId, operation).thenCompose(session -> {
            return Failures.attempt(() -> op.apply(session)).handle((value, e) -> {
                calls.ended(session);
                if (e != null) {
                    throw CallRouter.toRouteException(moduleId, e);
                }
                return value;
            });
        });
    }

    @Override
    public McpSchema.CallToolResult callTool(String tool, JsonNode arguments) {
        return callTool(tool, arguments, CallOptions.defaults());
    }

    @Override
    public McpSchema.CallToolResult callTool(String tool, JsonNode arguments, CallOptions options) {
        Objects.requireNonNull(options, "options");
        return startCall(tool, arguments, module -> options).await();
    }

    @Override
    public RoutedToolCall startCall(String tool, JsonNode arguments, Function<? super McpModule, CallOptions> options) {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(options, "options");
        return calls.startCall(this, tool, arguments, options);
    }

    @Override
    public <T> T surface(McpSurfaceRequest<T> request) {
        Objects.requireNonNull(request, "request");
        return use(request.method().operation(), s -> s.server().surface(request, s.timeout()));
    }

    @Override
    public <T> CompletableFuture<T> surfaceAsync(McpSurfaceRequest<T> request) {
        Objects.requireNonNull(request, "request");
        return useAsync(request.method().operation(), s -> s.server().surfaceAsync(request, s.timeout()));
    }

    @Override
    public Subscription subscribeNotifications(Consumer<? super McpSchema.JSONRPCNotification> listener) {
        Objects.requireNonNull(listener, "listener");
        return calls.notifications(moduleId).add(listener);
    }

    @Override
    public String toString() {
        return "McpModule[" + moduleId + "]";
    }
}
