package org.metaruntime.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.CompletionStage;

/**
 * Answers a request an MCP server sends to the host ({@code sampling/createMessage}, {@code elicitation/create},
 * {@code roots/list}, or any method of the server's own). Registered through {@link McpClientOptions.Builder}
 * (for the connection) or {@link McpCallOptions.Builder} (for one call).
 *
 * <p>Called on the module's stdout reader thread: it must return at once (do the work elsewhere and
 * complete the returned stage later) and must not throw. A stage completed exceptionally becomes a
 * JSON-RPC error for the server: the code, message and data of a {@link McpClientRequestException}, else -32603. Implementations must be thread-safe: one handler serves every
 * connection built with the same options.
 *
 * <pre>{@code
 * McpClientRequestHandler sampling = (moduleId, params) ->
 *         CompletableFuture.supplyAsync(() -> myModel.answer(params), myExecutor);
 * }</pre>
 */
@FunctionalInterface
public interface McpClientRequestHandler {

    /**
     * The {@code _meta} key of an input request of a modern server ({@code 2026-07-28}, an {@code input_required}
     * answer): the handler's {@code params._meta} holds under it {@code {"key", "keys", "request", "requestState"}}:
     * the server's key of this input request, every key of that round, the input request exactly as the server sent
     * it ({@code {method, params}}) and the server's {@code requestState} of that round (absent when it sent none).
     * A host that passes the round on to a client of its own (a gateway) forwards them as they are.
     */
    String INPUT_ROUND_META_KEY = "mcp-meta/inputRound";

    /**
     * @param moduleId the module whose server sent the request
     * @param params   the request's {@code params} (an empty object when the server sent none)
     * @return the JSON-RPC {@code result} to send back
     */
    CompletionStage<JsonNode> handle(String moduleId, JsonNode params);
}
