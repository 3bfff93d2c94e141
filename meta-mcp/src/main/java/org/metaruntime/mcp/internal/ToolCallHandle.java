package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.concurrent.CompletableFuture;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;
import org.metaruntime.mcp.McpCallOptions;
import org.metaruntime.mcp.McpToolCall;

/**
 * A {@code tools/call} on a persistent connection as a handle: one {@link Request} of kind {@code CALL}, whose raw
 * result becomes the whole result and the payload. Thread-safe.
 */
public final class ToolCallHandle implements McpToolCall {

    private final String moduleId;
    private final String tool;
    private final Request request;
    private final HandleFuture<McpSchema.CallToolResult> result = new HandleFuture<>(this::cancel);
    private final HandleFuture<JsonNode> payload = new HandleFuture<>(this::cancel);
    /** The server's answer once it arrived (a call that only wants the payload never converts it to a record). */
    private volatile JsonNode answer;
    private volatile boolean resultWanted;

    private ToolCallHandle(String moduleId, String tool, Request request, boolean bare) {
        this.moduleId = moduleId;
        this.tool = tool;
        this.request = request;
        request.future().whenComplete((raw, error) -> {
            if (error != null) {
                Throwable cause = Failures.unwrap(error);
                result.completeExceptionally(cause);
                payload.completeExceptionally(cause);
                return;
            }
            answer = bare ? ToolResults.wrapBare(raw) : raw;
            try {
                payload.complete(ToolResults.toPayload(moduleId, tool, answer));
            } catch (RuntimeException e) {
                payload.completeExceptionally(e);
            }
            if (resultWanted) {
                completeResult();
            }
        });
    }

    /** Converts the answer to the SDK's record, once someone asked for it and it arrived. */
    private void completeResult() {
        JsonNode a = answer;
        if (a == null || result.isDone()) {
            return;
        }
        try {
            result.complete(ToolResults.toResult(moduleId, tool, a));
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
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
        long deadline = System.nanoTime() + timeoutNanos;
        ObjectNode params = Json.MAPPER.createObjectNode();
        params.put("name", tool);
        options.meta().ifPresent(meta -> params.set("_meta", meta));
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
        resultWanted = true;
        completeResult();
        return result;
    }

    @Override
    public CompletableFuture<JsonNode> payload() {
        return payload;
    }

    @Override
    public void cancel() {
        request.cancel(new McpBoundaryError.Cancelled(moduleId, tool), "cancelled by the host");
    }
}
