package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.RpcException;
import org.metaruntime.supervisor.InFlight;

/**
 * The dispatch of a pod's call of another tool (the {@link CallPipeline}'s stage 8 for nested calls): a pod's
 * {@code __mcp_meta_call__} request ({@code {"tool": "pod.tool", "args", "expect", "_meta": {"mcp-meta/chain":
 * [...]}}}) becomes a {@code tools/call} of the target, answered with its {@code CallToolResult}. The nested call is
 * bounded by the target's call timeout and by what is left of the outer call's, and is cancelled when the outer call
 * ends. Thread-safe.
 */
final class NestedCalls {

    /** The method of a pod's request to call another tool. */
    static final String METHOD = "__mcp_meta_call__";
    /** The {@code _meta} key of the call chain, a list of {@code pod.tool}. */
    static final String CHAIN_KEY = "mcp-meta/chain";
    /** Default maximum number of entries on a chain. */
    static final int DEFAULT_MAX_DEPTH = org.metaruntime.gateway.GatewayOptions.DEFAULT_MAX_CALL_DEPTH;

    private final ToolTable table;
    private final PodBackend backend;
    private final java.util.function.LongSupplier nanoClock;

    /** @param nanoClock the gateway's monotonic clock of calls, in nanoseconds (their deadlines) */
    NestedCalls(ToolTable table, PodBackend backend, java.util.function.LongSupplier nanoClock) {
        this.table = table;
        this.backend = backend;
        this.nanoClock = nanoClock;
    }

    /** The target a pod's request names ({@code params.tool}, {@code pod-name.tool-name}); -32602 when it names none. */
    static String target(String pod, JsonNode params) {
        JsonNode toolNode = params.get("tool");
        if (toolNode == null || !toolNode.isTextual()) {
            throw new RpcException(JsonRpc.INVALID_PARAMS, "pod " + pod + ": " + METHOD
                    + " needs params.tool, the target as pod-name.tool-name");
        }
        return toolNode.textValue();
    }

    /** The chain the request carries, else the chain of the call it belongs to, else none. */
    static List<String> chain(JsonNode params, PodBackend.CallContext parent) {
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

    CompletableFuture<JsonNode> dispatch(PipelineCall call) {
        ToolTable.Route route = call.route;
        PodBackend.CallContext parent = call.outer;
        PodManifest manifest = table.catalog().pod(route.pod()).orElseThrow(() -> ToolCalls.failure(route, JsonRpc.INVALID_PARAMS,
                "the pod is not served any more", null));
        long bound = manifest.callTimeout().toNanos();
        if (parent != null) {
            long left = parent.scope().remainingNanos();
            if (left <= 0) {
                throw ToolCalls.failure(route, JsonRpc.TIMEOUT, "the calling call has no time left", null);
            }
            bound = Math.min(bound, left);
        }
        Duration timeout = Duration.ofNanos(bound);
        PodBackend.CallContext context = new PodBackend.CallContext(call.callId, timeout, null,
                parent != null ? parent.clientRequest() : request -> CompletableFuture.failedFuture(new RpcException(
                        JsonRpc.METHOD_NOT_FOUND, "pod " + route.pod() + ": no client is behind this call")),
                new CallScope(call.chain(), parent == null ? Long.MAX_VALUE : parent.scope().deadlineNanos(), call.principal,
                        call.span, nanoClock));
        InFlight<JsonNode> podCall = backend.pod(route.pod()).call(route.tool(), call.checkedArguments, context);
        Runnable cancel = podCall::cancel;
        if (parent != null) {
            parent.scope().nested(cancel);
        }
        return podCall.result().handle((result, error) -> {
            if (parent != null) {
                parent.scope().finished(cancel);
            }
            if (error == null) {
                return result;
            }
            if (ToolCalls.cancelled(error)) {
                call.cancelled = true;
            }
            throw ToolCalls.map(route, timeout, error);
        });
    }
}
