package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.metaruntime.mcp.McpClientRequestHandler;
import org.metaruntime.mcp.McpConnection;
import org.metaruntime.supervisor.internal.Failures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fulfils a modern server's {@code input_required} answers to {@code tools/call}, {@code prompts/get} and
 * {@code resources/read}: each of its {@code inputRequests} is answered by the same handler that would answer that
 * request from a legacy server ({@link ServerRequests#handler}, the call's first), and the request is sent again
 * under a new id with the {@code inputResponses} under the server's keys and its {@code requestState} byte for byte
 * (each handler also sees the round: {@link McpClientRequestHandler#INPUT_ROUND_META_KEY}),
 * within the request's own deadline, at most {@link #MAX_ROUNDS} times. An input request no handler answers, a
 * handler that fails, or one round too many fails the request. Thread-safe.
 */
public final class InputRounds {

    private static final Logger LOG = LoggerFactory.getLogger(McpConnection.class);
    /** The most rounds of input one request is fulfilled for. */
    public static final int MAX_ROUNDS = 10;
    private static final Set<String> MULTI_ROUND = Set.of(McpSchema.METHOD_TOOLS_CALL, McpSchema.METHOD_PROMPT_GET,
            McpSchema.METHOD_RESOURCES_READ);

    private final ServerRequests handlers;

    /** Rounds answered by {@code handlers}. */
    public InputRounds(ServerRequests handlers) {
        this.handlers = handlers;
    }

    /** Whether {@code result}, an answer to {@code method}, asks the client for input. */
    static boolean asksForInput(String method, JsonNode result) {
        return MULTI_ROUND.contains(method) && result != null && "input_required".equals(result.path("resultType").asText());
    }

    /**
     * The params of an input request of {@code r}, with the {@code _meta} entries the call itself carries
     * ({@link org.metaruntime.mcp.McpCallOptions#meta()}) added where the server's params lack them: a handler
     * shared by several calls can tell which one asks, as it can for a legacy server that echoes them.
     */
    private static JsonNode withCallMeta(JsonNode params, Request r) {
        ObjectNode given = params instanceof ObjectNode o ? o.deepCopy() : Json.MAPPER.createObjectNode();
        ObjectNode callMeta = r.callOptions() == null ? null : r.callOptions().meta().orElse(null);
        if (callMeta == null || callMeta.isEmpty()) {
            return given;
        }
        JsonNode existing = given.get("_meta");
        ObjectNode meta = existing instanceof ObjectNode o ? o : given.putObject("_meta");
        callMeta.fields().forEachRemaining(e -> {
            if (!meta.has(e.getKey()) && !e.getKey().startsWith("io.modelcontextprotocol/")
                    && !e.getKey().equals("progressToken")) {
                meta.set(e.getKey(), e.getValue());
            }
        });
        return given;
    }

    /** Answers the input {@code result} asks {@code r} for, then sends {@code r} again; or fails {@code r}. */
    void fulfil(Request r, JsonNode result) {
        int round = r.nextRound();
        if (round > MAX_ROUNDS) {
            r.fail("the server asked for input more than " + MAX_ROUNDS + " times");
            return;
        }
        JsonNode requests = result.path("inputRequests");
        List<String> keys = new ArrayList<>();
        List<CompletableFuture<JsonNode>> answers = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = requests.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            String method = entry.getValue().path("method").asText("");
            if (handlers.handler(method, r.callOptions()) == null) {
                r.fail("the server asked for " + (method.isEmpty() ? "input of no method" : Json.sample(method, 100))
                        + ", which the host does not answer");
                return;
            }
            keys.add(entry.getKey());
        }
        ArrayNode roundKeys = Json.MAPPER.createArrayNode();
        keys.forEach(roundKeys::add);
        JsonNode state = result.get("requestState");
        for (String key : keys) {
            JsonNode request = requests.get(key);
            ObjectNode params = (ObjectNode) withCallMeta(request.get("params"), r);
            JsonNode existing = params.get("_meta");
            ObjectNode meta = existing instanceof ObjectNode o ? o : params.putObject("_meta");
            ObjectNode tag = meta.putObject(McpClientRequestHandler.INPUT_ROUND_META_KEY).put("key", key);
            tag.set("keys", roundKeys);
            tag.set("request", request.deepCopy());
            if (state != null) {
                tag.set("requestState", state);
            }
            answers.add(handlers.answer(request.path("method").asText(""), params, r.callOptions()));
        }
        LOG.debug("module '{}': {} asked for input (round {}: {})", r.moduleId(), r.operation(), round, keys);
        CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).whenComplete((ok, e) -> {
            if (e != null) {
                Throwable cause = Failures.unwrap(e);
                r.fail("the host could not answer the server's input request: "
                        + (cause instanceof McpError m ? m.getMessage() : String.valueOf(cause.getMessage())));
                return;
            }
            ObjectNode params = r.params();
            ObjectNode responses = params.putObject("inputResponses");
            for (int i = 0; i < keys.size(); i++) {
                responses.set(keys.get(i), answers.get(i).join());
            }
            if (state == null) {
                params.remove("requestState");
            } else {
                params.set("requestState", state);
            }
            resend(r);
        });
    }

    /**
     * Sends {@code r} again under a new id (a round of a multi-round request: its parameters now carry the answers),
     * keeping its slot, deadline and progress token; does nothing once it has an outcome.
     */
    private static void resend(Request r) {
        r.window().send(r);
    }
}
