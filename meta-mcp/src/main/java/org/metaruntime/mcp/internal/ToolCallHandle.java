package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;
import org.metaruntime.mcp.McpCallOptions;
import org.metaruntime.mcp.McpToolCall;
import org.metaruntime.supervisor.internal.Failures;
import org.metaruntime.supervisor.internal.HandleFuture;

/**
 * A {@code tools/call} on a persistent connection as a handle: one {@link Request} of kind {@code CALL}, whose answer
 * is offered three ways (the SDK's record, the projected payload, the JSON as sent), each built only when first
 * asked for. Thread-safe.
 */
public final class ToolCallHandle implements McpToolCall {

    private final String moduleId;
    private final String tool;
    private final Request request;
    /** The server's answer once it arrived; each view of it is converted only once someone asks for it. */
    private volatile JsonNode answer;
    private final View<McpSchema.CallToolResult> result;
    private final View<JsonNode> payload;
    private final View<JsonNode> resultJson;

    private ToolCallHandle(String moduleId, String tool, Request request, boolean bare) {
        this.moduleId = moduleId;
        this.tool = tool;
        this.request = request;
        this.result = new View<>(a -> ToolResults.toResult(moduleId, tool, a));
        this.payload = new View<>(a -> ToolResults.toPayload(moduleId, tool, a));
        this.resultJson = new View<>(a -> ToolResults.checked(moduleId, tool, a));
        request.future().whenComplete((raw, error) -> {
            if (error != null) {
                Throwable cause = Failures.unwrap(error);
                result.future.completeExceptionally(cause);
                payload.future.completeExceptionally(cause);
                resultJson.future.completeExceptionally(cause);
                return;
            }
            answer = bare ? ToolResults.wrapBare(raw) : raw;
            result.tryComplete();
            payload.tryComplete();
            resultJson.tryComplete();
        });
    }

    /** One view of the answer: its future completes once it is wanted and the answer arrived, whichever is last. */
    private final class View<T> {
        final HandleFuture<T> future = new HandleFuture<>(ToolCallHandle.this::cancel);
        private final Function<JsonNode, T> convert;
        private volatile boolean wanted;

        View(Function<JsonNode, T> convert) {
            this.convert = convert;
        }

        CompletableFuture<T> want() {
            wanted = true;
            tryComplete();
            return future;
        }

        void tryComplete() {
            JsonNode a = answer;
            if (!wanted || a == null || future.isDone()) {
                return;
            }
            try {
                future.complete(convert.apply(a));
            } catch (RuntimeException e) {
                future.completeExceptionally(e);
            }
        }
    }

    /**
     * Starts {@code tool}: refreshes the catalog once when it does not list the tool, then submits the call to the
     * window. Never throws for a failure of the call: the handle's futures fail instead. A {@code bare} server's
     * answer that is not a {@code CallToolResult} is wrapped into one. With {@code timed} false the caller, waiting,
     * enforces the deadline ({@link Request#expire()}); no timer is armed.
     */
    public static ToolCallHandle start(CallWindow window, ToolCatalog catalog, String tool, JsonNode arguments,
                                       McpCallOptions options, boolean bare, boolean timed) {
        String moduleId = window.moduleId();
        long timeoutNanos = options.timeout().toNanos();
        long deadline = window.now() + timeoutNanos;
        ObjectNode params = Json.MAPPER.createObjectNode();
        params.put("name", tool);
        ObjectNode meta = CallMeta.held(options);
        if (meta != null) {
            params.putObject("_meta").setAll(meta); // a call adds its own entries at the top only
        }
        Request r = window.create(Request.Kind.CALL, McpSchema.METHOD_TOOLS_CALL, "call_tool:" + tool,
                tool, params, options.timeout().toMillis(), deadline, options, timed);
        ToolCallHandle handle = new ToolCallHandle(moduleId, tool, r, bare);
        if (arguments == null || arguments.isNull() || arguments.isMissingNode()) {
            params.putObject("arguments");
        } else if (arguments.isObject()) {
            params.set("arguments", arguments);
        } else {
            r.fail("arguments must be a JSON object, got " + arguments.getNodeType());
            return handle;
        }
        if (catalog.contains(tool)) {
            window.submit(r);
        } else {
            catalog.ensure(tool, options.timeout().toMillis(), deadline).whenComplete((ok, e) -> {
                if (e == null) {
                    window.submit(r);
                } else {
                    r.fail(Failures.unwrap(e) instanceof McpBoundaryException ? (McpBoundaryException) Failures.unwrap(e)
                            : new McpBoundaryException(r.failure(String.valueOf(Failures.unwrap(e)))));
                }
            });
        }
        return handle;
    }

    /** The request behind the handle. */
    public Request request() {
        return request;
    }

    @Override
    public String moduleId() {
        return moduleId;
    }

    @Override
    public String tool() {
        return tool;
    }

    @Override
    public CompletableFuture<McpSchema.CallToolResult> result() {
        return result.want();
    }

    @Override
    public CompletableFuture<JsonNode> resultJson() {
        return resultJson.want();
    }

    @Override
    public CompletableFuture<JsonNode> payload() {
        return payload.want();
    }

    @Override
    public CompletableFuture<Void> finished() {
        return resultJson.want().handle((r, e) -> null);
    }

    @Override
    public void cancel() {
        request.cancel(new McpBoundaryError.Cancelled(moduleId, tool), "cancelled by the host");
    }
}
