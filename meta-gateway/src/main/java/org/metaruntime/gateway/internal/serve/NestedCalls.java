package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.metaruntime.gateway.internal.contract.Expectation;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.RpcException;

/**
 * Pod-to-pod calls: a pod's {@code __mcp_meta_call__} request ({@code {"tool": "pod.tool", "args", "expect",
 * "_meta": {"mcp-meta/chain": [...]}}}) becomes a {@code tools/call} of the target, answered with its
 * {@code CallToolResult}. Before the target is called: a target already on the chain, or a chain that would pass
 * the maximum depth, fails with -32004 (the chain in {@code data}); a contract the target does not fit fails with
 * -32005 (expected and found in {@code data}); arguments its declared schema rejects fail with -32602. The chain is
 * the one the request forwards, else the one of the call it belongs to. The nested call is bounded by the target's
 * call timeout and by what is left of the calling call's, and is cancelled when the calling call ends.
 * Thread-safe.
 */
final class NestedCalls implements PodBackend.PodCallHandler {

    /** The method of a pod's request to call another tool. */
    static final String METHOD = "__mcp_meta_call__";
    /** The {@code _meta} key of the call chain, a list of {@code pod.tool}. */
    static final String CHAIN_KEY = "mcp-meta/chain";
    /** Default maximum number of entries on a chain. */
    static final int DEFAULT_MAX_DEPTH = org.metaruntime.gateway.GatewayOptions.DEFAULT_MAX_CALL_DEPTH;

    private final ToolTable table;
    private final PodBackend backend;
    private final PodStats stats;
    private final ToolCalls calls;
    private final int maxDepth;

    NestedCalls(ToolTable table, PodBackend backend, PodStats stats, ToolCalls calls, int maxDepth) {
        if (maxDepth < 1) {
            throw new IllegalArgumentException("the maximum call depth must be at least 1, not " + maxDepth);
        }
        this.table = table;
        this.backend = backend;
        this.stats = stats;
        this.calls = calls;
        this.maxDepth = maxDepth;
    }

    @Override
    public CompletableFuture<JsonNode> call(String pod, JsonNode params, PodBackend.CallContext parent) {
        long received = System.nanoTime();
        ToolTable.Route route = null;
        try {
            route = target(pod, params);
            List<String> chain = chain(params, parent);
            return start(route, checked(route, chain, params), chain, parent);
        } catch (RpcException refused) {
            stats.refused(route, System.nanoTime() - received, refused.code());
            throw refused;
        }
    }

    /** The route the call names; -32602 when it names none. */
    private ToolTable.Route target(String pod, JsonNode params) {
        JsonNode toolNode = params.get("tool");
        if (toolNode == null || !toolNode.isTextual() || toolNode.textValue().indexOf('.') <= 0) {
            throw new RpcException(JsonRpc.INVALID_PARAMS, "pod " + pod + ": " + METHOD
                    + " needs params.tool, the target as pod-name.tool-name");
        }
        String target = toolNode.textValue();
        int dot = target.indexOf('.');
        return table.route(target.substring(0, dot), target.substring(dot + 1))
                .orElseThrow(() -> new RpcException(JsonRpc.INVALID_PARAMS, "pod " + pod + ": unknown tool " + target
                        + " (pod-name.tool-name of a registered tool)", JsonRpc.NODES.objectNode().put("tool", target)));
    }

    /** The call's arguments once its chain, expectation and arguments are checked (-32004, -32005, -32602). */
    private JsonNode checked(ToolTable.Route route, List<String> chain, JsonNode params) {
        checkChain(route, chain);
        Expectation expect;
        try {
            expect = Expectation.parse(params.get("expect"));
        } catch (IllegalArgumentException e) {
            throw ToolCalls.failure(route, JsonRpc.INVALID_PARAMS, e.getMessage(), null);
        }
        Optional<ObjectNode> mismatch = expect.check(route.contract() == null ? null : route.contract().id(),
                route.contract() == null ? null : route.contract().version(), route.schemaHash());
        if (mismatch.isPresent()) {
            throw ToolCalls.failure(route, JsonRpc.CONTRACT_MISMATCH, "contract mismatch ("
                    + String.join(", ", names(mismatch.get().get("mismatch"))) + "): expected " + mismatch.get().get("expected")
                    + ", found " + mismatch.get().get("found"), mismatch.get());
        }
        JsonNode arguments = params.get("args");
        if (arguments == null || arguments.isNull()) {
            return JsonRpc.NODES.objectNode();
        }
        if (!arguments.isObject()) {
            throw ToolCalls.failure(route, JsonRpc.INVALID_PARAMS, "args must be an object", null);
        }
        if (route.inputSchema() != null) {
            calls.validate(route, arguments);
        }
        return arguments;
    }

    private CompletableFuture<JsonNode> start(ToolTable.Route route, JsonNode arguments, List<String> chain,
                                              PodBackend.CallContext parent) {
        PodManifest manifest = table.manifest(route.pod()).orElseThrow(() -> ToolCalls.failure(route, JsonRpc.INVALID_PARAMS,
                "the pod is not served any more", null));
        long now = System.nanoTime();
        long bound = manifest.callTimeout().toNanos();
        if (parent != null) {
            long left = parent.scope().remainingNanos(now);
            if (left <= 0) {
                throw ToolCalls.failure(route, JsonRpc.TIMEOUT, "the calling call has no time left", null);
            }
            bound = Math.min(bound, left);
        }
        Duration timeout = Duration.ofNanos(bound);
        List<String> next = new ArrayList<>(chain);
        next.add(route.chainName());
        PodBackend.CallContext context = new PodBackend.CallContext(calls.nextCallId(), timeout, null,
                parent != null ? parent.clientRequest() : request -> CompletableFuture.failedFuture(new RpcException(
                        JsonRpc.METHOD_NOT_FOUND, "pod " + route.pod() + ": no client is behind this call")),
                new CallScope(next, parent == null ? Long.MAX_VALUE : parent.scope().deadlineNanos()));
        long started = System.nanoTime();
        PodBackend.PodCall call = backend.pod(route.pod()).call(route.tool(), arguments, context);
        Runnable cancel = call::cancel;
        if (parent != null) {
            parent.scope().nested(cancel);
        }
        return call.result().handle((result, error) -> {
            if (parent != null) {
                parent.scope().finished(cancel);
            }
            if (error == null) {
                stats.served(route.pod(), route.tool(), System.nanoTime() - started);
                return result;
            }
            RpcException mapped = ToolCalls.map(route, timeout, error);
            stats.failed(route.pod(), route.tool(), System.nanoTime() - started, mapped.code());
            throw mapped;
        });
    }

    /** The chain the request carries, else the chain of the call it belongs to, else none. */
    private static List<String> chain(JsonNode params, PodBackend.CallContext parent) {
        JsonNode forwarded = params.path("_meta").get(CHAIN_KEY);
        if (forwarded != null && forwarded.isArray()) {
            List<String> chain = new ArrayList<>();
            for (JsonNode entry : forwarded) {
                if (!entry.isTextual()) {
                    throw new RpcException(JsonRpc.INVALID_PARAMS, METHOD + ": _meta[\"" + CHAIN_KEY
                            + "\"] must be a list of pod-name.tool-name");
                }
                chain.add(entry.textValue());
            }
            return chain;
        }
        return parent == null ? List.of() : parent.scope().chain();
    }

    private void checkChain(ToolTable.Route route, List<String> chain) {
        List<String> next = new ArrayList<>(chain);
        next.add(route.chainName());
        ObjectNode data = JsonRpc.NODES.objectNode();
        ArrayNode list = data.putArray("chain");
        next.forEach(list::add);
        if (chain.contains(route.chainName())) {
            throw ToolCalls.failure(route, JsonRpc.CYCLE, "call cycle: " + String.join(" -> ", next), data);
        }
        if (next.size() > maxDepth) {
            data.put("maxDepth", maxDepth);
            throw ToolCalls.failure(route, JsonRpc.CYCLE, "the call chain would be " + next.size()
                    + " deep, more than the maximum of " + maxDepth + ": " + String.join(" -> ", next), data);
        }
    }

    private static List<String> names(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
