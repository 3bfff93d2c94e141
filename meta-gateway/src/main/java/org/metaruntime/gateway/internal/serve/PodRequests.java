package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.RpcException;
import org.metaruntime.mcp.McpClientRequestException;
import org.metaruntime.supervisor.internal.Failures;

/**
 * Finds the call a pod's request belongs to (the call named by the request's {@code _meta["mcp-meta/call"]}, else
 * the pod's only call in flight, else its oldest) and routes its requests to the client (sampling, elicitation,
 * roots) to that call's client. Thread-safe.
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

    /**
     * The call of {@code pod} a request with {@code params} belongs to: the one its {@code _meta["mcp-meta/call"]}
     * names, else the pod's only call in flight, else its oldest; null when it has none.
     */
    PodBackend.CallContext callOf(String pod, JsonNode params) {
        JsonNode id = params == null ? null : params.path("_meta").get(CALL_KEY);
        if (id != null && id.isTextual()) {
            InFlight named = byId.get(id.textValue());
            if (named != null) {
                return named.context();
            }
        }
        ConcurrentSkipListMap<Long, InFlight> calls = byPod.get(pod);
        Map.Entry<Long, InFlight> oldest = calls == null ? null : calls.firstEntry();
        return oldest == null ? null : oldest.getValue().context();
    }

    /**
     * The call of {@code pod} a {@code __mcp_meta_call__} with {@code params} is made for ({@link #callOf}), and whether
     * that is ambiguous: it names no call in flight while the pod has calls in flight of more than one principal.
     */
    PodBackend.Outer outerCall(String pod, JsonNode params) {
        JsonNode id = params == null ? null : params.path("_meta").get(CALL_KEY);
        if (id != null && id.isTextual()) {
            InFlight named = byId.get(id.textValue());
            ConcurrentSkipListMap<Long, InFlight> ofPod = byPod.get(pod);
            if (named != null && ofPod != null && ofPod.containsValue(named)) {
                return new PodBackend.Outer(named.context(), false);
            }
        }
        ConcurrentSkipListMap<Long, InFlight> calls = byPod.get(pod);
        Map.Entry<Long, InFlight> oldest = calls == null ? null : calls.firstEntry();
        if (oldest == null) {
            return PodBackend.Outer.NONE;
        }
        org.metaruntime.gateway.spi.Principal first = oldest.getValue().context().scope().principal();
        boolean ambiguous = calls.values().stream().anyMatch(c -> {
            org.metaruntime.gateway.spi.Principal p = c.context().scope().principal();
            return first == null ? p != null : !first.sameAs(p);
        });
        return new PodBackend.Outer(oldest.getValue().context(), ambiguous);
    }

    /** A pod's request {@code method} with {@code params}: forwarded to the client of the call it belongs to. */
    CompletableFuture<JsonNode> route(String pod, String method, JsonNode params) {
        PodBackend.CallContext target = callOf(pod, params);
        if (target == null) {
            return CompletableFuture.failedFuture(new McpClientRequestException(JsonRpc.METHOD_NOT_FOUND,
                    "pod " + pod + ": " + method + " is only answered during a tools/call", null));
        }
        ObjectNode request = JsonRpc.NODES.objectNode().put("method", method);
        request.set("params", params == null ? JsonRpc.NODES.objectNode() : params);
        return answer(target.clientRequest().apply(request));
    }

    /** {@code answer} with an RPC error turned into the JSON-RPC error the pod gets (same code, message, data). */
    static CompletableFuture<JsonNode> answer(CompletableFuture<JsonNode> answer) {
        return answer.handle((result, error) -> {
            if (error == null) {
                return result;
            }
            Throwable cause = Failures.unwrap(error);
            if (cause instanceof RpcException rpc) {
                throw new McpClientRequestException(rpc.code(), rpc.getMessage(), rpc.data());
            }
            throw cause instanceof RuntimeException e ? e : new CompletionException(cause);
        });
    }
}
