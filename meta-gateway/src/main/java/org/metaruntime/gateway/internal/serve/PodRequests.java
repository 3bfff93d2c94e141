package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.RpcException;

/**
 * Routes a pod's requests to the client (sampling, elicitation, roots) to the call they belong to: the call
 * named by the request's {@code _meta["mcp-meta/call"]}, else the pod's only call in flight, else its oldest.
 * Thread-safe.
 */
final class PodRequests {

    /** The {@code _meta} key carrying the gateway's id of a call. */
    static final String CALL_KEY = "mcp-meta/call";

    private record InFlight(String callId, PodBackend.CallContext context) {
    }

    private final AtomicLong order = new AtomicLong();
    private final Map<String, ConcurrentSkipListMap<Long, InFlight>> byPod = new ConcurrentHashMap<>();
    private final Map<String, InFlight> byId = new ConcurrentHashMap<>();

    /** Registers a call in flight; the returned runnable unregisters it. */
    Runnable register(String pod, PodBackend.CallContext context) {
        long seq = order.incrementAndGet();
        InFlight entry = new InFlight(context.callId(), context);
        ConcurrentSkipListMap<Long, InFlight> calls = byPod.computeIfAbsent(pod, p -> new ConcurrentSkipListMap<>());
        calls.put(seq, entry);
        byId.put(context.callId(), entry);
        return () -> {
            calls.remove(seq);
            byId.remove(context.callId());
        };
    }

    /** A pod's request {@code method} with {@code params}: forwarded to the client of the call it belongs to. */
    CompletableFuture<JsonNode> route(String pod, String method, JsonNode params) {
        InFlight target = null;
        JsonNode id = params == null ? null : params.path("_meta").get(CALL_KEY);
        if (id != null && id.isTextual()) {
            target = byId.get(id.textValue());
        }
        if (target == null) {
            ConcurrentSkipListMap<Long, InFlight> calls = byPod.get(pod);
            Map.Entry<Long, InFlight> oldest = calls == null ? null : calls.firstEntry();
            target = oldest == null ? null : oldest.getValue();
        }
        if (target == null) {
            return CompletableFuture.failedFuture(new RpcException(JsonRpc.METHOD_NOT_FOUND,
                    "pod " + pod + ": " + method + " is only answered during a tools/call"));
        }
        ObjectNode request = JsonRpc.NODES.objectNode().put("method", method);
        request.set("params", params == null ? JsonRpc.NODES.objectNode() : params);
        return target.context().clientRequest().apply(request);
    }
}
