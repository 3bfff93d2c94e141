package org.metaruntime.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.metaruntime.core.internal.ChildExit;
import org.metaruntime.core.internal.McpChild;
import org.metaruntime.core.internal.McpSession;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;
import org.metaruntime.mcp.McpCallOptions;
import org.metaruntime.mcp.McpSurfaceRequest;
import org.metaruntime.mcp.McpToolCall;

/**
 * One "connection" to a {@link FakeMcpModule}: its MCP session as a real server's would be. It lists the module's
 * tools, runs their calls ({@link FakeToolCall}), forwards the module's notifications, answers {@code ping}, and
 * refuses resources, prompts and completion with JSON-RPC error -32601 as a server that offers none does. When it
 * ends, its calls in flight fail at once: with the exit code and stderr tail of a crash. Thread-safe.
 */
final class FakeMcpConnection extends FakeChildren.Base implements McpChild, McpSession {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Map<String, Object> ANY_OBJECT = Map.of("type", "object");

    private final String moduleId;
    private final Map<String, FakeTool.WithContext> tools;
    private final Executor executor;
    private final Set<FakeToolCall> inFlight = ConcurrentHashMap.newKeySet();
    private final Set<Consumer<? super McpSchema.JSONRPCNotification>> listeners = ConcurrentHashMap.newKeySet();

    FakeMcpConnection(FakeChildren children, String moduleId, Map<String, FakeTool.WithContext> tools,
                      Executor executor) {
        children.super();
        this.moduleId = moduleId;
        this.tools = tools;
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    @Override
    public String moduleId() {
        return moduleId;
    }

    @Override
    public List<String> tools() {
        return new ArrayList<>(tools.keySet());
    }

    @Override
    public McpSession session() {
        return this;
    }

    @Override
    public boolean isOpen() {
        return alive();
    }

    @Override
    public List<McpSchema.Tool> toolDescriptors() {
        List<McpSchema.Tool> descriptors = new ArrayList<>();
        for (String name : tools.keySet()) {
            descriptors.add(new McpSchema.Tool(name, null, null, ANY_OBJECT, null, null, null));
        }
        return descriptors;
    }

    @Override
    public McpToolCall startCall(String tool, JsonNode arguments, McpCallOptions options) {
        FakeToolCall call = new FakeToolCall(moduleId, tool, options, this::notifyListeners);
        FakeTool.WithContext body = tools.get(tool);
        if (!alive()) {
            call.fail(new McpBoundaryError.ToolCallFailed(moduleId, tool, "the connection is closed"));
            return call;
        }
        boolean none = arguments == null || arguments.isNull() || arguments.isMissingNode();
        if (!none && !arguments.isObject()) {
            call.fail(new McpBoundaryError.ToolCallFailed(moduleId, tool,
                    "arguments must be a JSON object, got " + arguments.getNodeType()));
            return call;
        }
        if (body == null) {
            call.fail(new McpBoundaryError.ToolNotFound(moduleId, tool, tools()));
            return call;
        }
        inFlight.add(call);
        call.result().whenComplete((result, error) -> inFlight.remove(call));
        return call.start(body, none ? MAPPER.createObjectNode() : arguments, executor);
    }

    @Override
    public String protocolVersion() {
        return "2025-11-25";
    }

    @Override
    public CompletableFuture<Void> pingAsync(Duration timeout) {
        return alive() ? CompletableFuture.completedFuture(null) : CompletableFuture.failedFuture(
                new McpBoundaryException(new McpBoundaryError.RequestFailed(moduleId, "ping", "the connection is closed")));
    }

    /** What a server without resources, prompts, completion or extensions answers to {@code method}. */
    private McpBoundaryException notOffered(String operation, String method) {
        return new McpBoundaryException(new McpBoundaryError.JsonRpcError(moduleId, operation, -32601,
                "Method not found: " + method, null));
    }

    @Override
    public <T> T surface(McpSurfaceRequest<T> request, Duration timeout) {
        throw notOffered(request.method().operation(), request.method().wireName());
    }

    @Override
    public JsonNode request(String method, ObjectNode params, Duration timeout) {
        throw notOffered(method, method);
    }

    @Override
    public void forwardNotifications(Consumer<? super McpSchema.JSONRPCNotification> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** The server sends a notification: every listener of this connection gets it, on the calling thread. */
    void notifyListeners(String method, JsonNode params) {
        if (!alive()) {
            return;
        }
        McpSchema.JSONRPCNotification notification = new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION,
                method, params == null ? null : MAPPER.convertValue(params, Object.class));
        for (Consumer<? super McpSchema.JSONRPCNotification> listener : listeners) {
            listener.accept(notification);
        }
    }

    @Override
    void onEnd(ChildExit how) {
        listeners.clear();
        if (how.requestedByRuntime()) {
            inFlight.forEach(call -> call.fail(new McpBoundaryError.ToolCallFailed(moduleId, call.tool(),
                    "the connection was closed")));
            return;
        }
        int exitCode = how.exitCode().orElse(-1);
        String reason = "the server process exited with code " + exitCode + "; stderr tail: " + how.stderrTail().strip();
        inFlight.forEach(call -> call.fail(new McpBoundaryError.ToolCallFailed(moduleId, call.tool(), reason),
                OptionalInt.of(exitCode), how.stderrTail()));
    }
}
