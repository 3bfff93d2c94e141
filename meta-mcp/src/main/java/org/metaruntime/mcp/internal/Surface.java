package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;
import org.metaruntime.mcp.McpSurfaceRequest;

/**
 * The MCP surface of a server beyond tools ({@link McpSurfaceRequest.Method}: resources, prompts, completion), extension
 * requests and {@code ping}, each a request through the connection's {@link CallWindow} with its own deadline, every
 * list following all its pages, each answer read as the SDK's record. Thread-safe.
 */
public final class Surface {

    private final CallWindow window;

    /** The surface requested through {@code window}. */
    public Surface(CallWindow window) {
        this.window = window;
    }

    /**
     * The request {@code method} of the surface with {@code params}: its answer read by {@link McpSurfaceRequest.Method#read}
     * (a list: every page, its items read one by one).
     */
    public CompletableFuture<Object> send(McpSurfaceRequest.Method method, ObjectNode params, long timeoutMs, long deadline) {
        Optional<String> field = method.listField();
        if (field.isPresent()) {
            String moduleId = window.moduleId();
            return Pages.all(window, Request.Kind.SURFACE, method.wireName(), method.operation(), field.get(), method::read,
                    reason -> new McpBoundaryError.RequestFailed(moduleId, method.operation(), reason), timeoutMs, deadline)
                    .thenApply(items -> items);
        }
        return request(method.wireName(), method.operation(), params, method::read, timeoutMs, deadline);
    }

    /** Any request {@code method} with {@code params}: the server's result as sent. */
    public CompletableFuture<JsonNode> send(String method, ObjectNode params, long timeoutMs, long deadline) {
        return request(method, method, params, Function.identity(), timeoutMs, deadline);
    }

    /**
     * {@code ping} (a modern server, which has no {@code ping}: {@code server/discover}): completes when the server
     * answered.
     */
    public CompletableFuture<Void> ping(long timeoutMs, long deadline) {
        String method = window.envelope().isModern() ? Discovery.METHOD : McpSchema.METHOD_PING;
        return request(method, "ping", Json.MAPPER.createObjectNode(), Function.identity(), timeoutMs, deadline)
                .thenApply(ignored -> null);
    }

    private <T> CompletableFuture<T> request(String method, String operation, ObjectNode params,
                                             Function<JsonNode, T> read, long timeoutMs, long deadline) {
        Request r = window.create(Request.Kind.SURFACE, method, operation, null, params, timeoutMs, deadline, null);
        window.submit(r);
        return r.future().thenApply(result -> {
            try {
                return read.apply(result);
            } catch (RuntimeException e) {
                throw new McpBoundaryException(new McpBoundaryError.RequestFailed(window.moduleId(), operation,
                        "the server sent an invalid " + method + " result: " + e.getMessage()), e);
            }
        });
    }
}
