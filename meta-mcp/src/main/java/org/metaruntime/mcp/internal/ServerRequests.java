package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpClientSession;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.metaruntime.mcp.McpCallOptions;
import org.metaruntime.mcp.McpClientOptions;
import org.metaruntime.mcp.McpClientRequestException;
import org.metaruntime.mcp.McpClientRequestHandler;
import org.metaruntime.mcp.McpRoot;
import org.metaruntime.supervisor.internal.Failures;
import reactor.core.publisher.Mono;

/**
 * Answers the requests a server sends to the client: {@code ping}; {@code sampling/createMessage},
 * {@code elicitation/create} and {@code roots/list}, each by the handler of the call in flight when exactly one
 * call on the wire names a handler for it, else by the connection's handler (for {@code roots/list}: its handler,
 * else the configured roots), else with JSON-RPC error -32601; and any other method the connection has a handler
 * for. Handlers run on the module's stdout thread and return a stage; nothing here waits for the host. A stage
 * failed with {@link McpClientRequestException} is answered with its code, message and data. Thread-safe.
 */
public final class ServerRequests {

    private final String moduleId;
    private final McpClientOptions options;
    private final CallWindow window;

    /** The answers for {@code window}'s connection with {@code options}' handlers. */
    public ServerRequests(String moduleId, McpClientOptions options, CallWindow window) {
        this.moduleId = moduleId;
        this.options = options;
        this.window = window;
    }

    /** The handlers to give the SDK client session. */
    public Map<String, McpClientSession.RequestHandler<?>> handlers() {
        Map<String, McpClientSession.RequestHandler<?>> handlers = new HashMap<>();
        handlers.put(McpSchema.METHOD_PING, params -> Mono.just(Json.MAPPER.createObjectNode()));
        for (String method : ANSWERED) {
            handlers.put(method, routed(method));
        }
        options.requestHandlers().keySet().forEach(method -> handlers.putIfAbsent(method, routed(method)));
        return handlers;
    }

    /**
     * The handler that answers the server's request of {@code method}: the handler {@code call} names for it (with
     * {@code call} null: the one call on the wire that names one), else the connection's (for {@code roots/list}: its
     * handler, else the configured roots); null when there is none.
     */
    public McpClientRequestHandler handler(String method, McpCallOptions call) {
        Function<McpCallOptions, Optional<McpClientRequestHandler>> perCall = perCall(method);
        McpClientRequestHandler handler = call == null ? callHandler(perCall) : perCall.apply(call).orElse(null);
        if (handler != null) {
            return handler;
        }
        if (McpSchema.METHOD_ROOTS_LIST.equals(method)) {
            JsonNode roots = roots(options.roots());
            return options.rootsHandler().orElse((module, params) -> CompletableFuture.completedFuture(roots.deepCopy()));
        }
        return options.requestHandler(method).orElse(null);
    }

    /**
     * Answers the server's request of {@code method} with {@code params} through {@link #handler}: completes with the
     * handler's result, or fails with the {@link McpError} to answer (-32601 when no handler answers it, the code of
     * a {@link McpClientRequestException}, else -32603).
     */
    public CompletableFuture<JsonNode> answer(String method, JsonNode params, McpCallOptions call) {
        McpClientRequestHandler handler = handler(method, call);
        if (handler == null) {
            return CompletableFuture.failedFuture(McpError.builder(McpSchema.ErrorCodes.METHOD_NOT_FOUND)
                    .message("the host does not support " + method).build());
        }
        CompletionStage<JsonNode> answer;
        try {
            answer = handler.handle(moduleId, params == null ? Json.MAPPER.createObjectNode() : params);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(error(method, e));
        }
        if (answer == null) {
            return CompletableFuture.failedFuture(error(method, new IllegalStateException("the handler returned no answer")));
        }
        CompletableFuture<JsonNode> result = new CompletableFuture<>();
        answer.whenComplete((value, e) -> {
            if (e == null) {
                result.complete(value);
            } else {
                result.completeExceptionally(e instanceof McpError ? e : error(method, e));
            }
        });
        return result;
    }

    private static final List<String> ANSWERED = List.of(McpSchema.METHOD_ROOTS_LIST,
            McpSchema.METHOD_SAMPLING_CREATE_MESSAGE, McpSchema.METHOD_ELICITATION_CREATE);

    private static Function<McpCallOptions, Optional<McpClientRequestHandler>> perCall(String method) {
        switch (method) {
            case McpSchema.METHOD_ROOTS_LIST:
                return McpCallOptions::rootsHandler;
            case McpSchema.METHOD_SAMPLING_CREATE_MESSAGE:
                return McpCallOptions::samplingHandler;
            case McpSchema.METHOD_ELICITATION_CREATE:
                return McpCallOptions::elicitationHandler;
            default:
                return o -> Optional.empty();
        }
    }

    private McpClientSession.RequestHandler<JsonNode> routed(String method) {
        return params -> Mono.defer(() -> Mono.fromFuture(answer(method, params == null ? null
                : params instanceof JsonNode ? (JsonNode) params : Json.MAPPER.valueToTree(params), null)));
    }

    private static McpError error(String method, Throwable e) {
        Throwable cause = Failures.unwrap(e);
        if (cause instanceof McpClientRequestException answer) {
            return McpError.builder(answer.code()).message(answer.getMessage()).data(answer.data()).build();
        }
        return McpError.builder(McpSchema.ErrorCodes.INTERNAL_ERROR)
                .message("the host failed to answer " + method + ": " + cause.getMessage()).build();
    }

    /** The handler of the one call on the wire that names one, else null. */
    private McpClientRequestHandler callHandler(Function<McpCallOptions, Optional<McpClientRequestHandler>> perCall) {
        McpClientRequestHandler found = null;
        for (Request r : window.callsOnTheWire()) {
            McpCallOptions o = r.callOptions();
            Optional<McpClientRequestHandler> h = o == null ? Optional.empty() : perCall.apply(o);
            if (h.isPresent()) {
                if (found != null) {
                    return null; // ambiguous: several calls could have made the request
                }
                found = h.get();
            }
        }
        return found;
    }

    private static JsonNode roots(List<McpRoot> roots) {
        ObjectNode result = Json.MAPPER.createObjectNode();
        ArrayNode list = result.putArray("roots");
        for (McpRoot root : roots) {
            ObjectNode r = list.addObject().put("uri", root.uri());
            if (root.name() != null) {
                r.put("name", root.name());
            }
        }
        return result;
    }
}
