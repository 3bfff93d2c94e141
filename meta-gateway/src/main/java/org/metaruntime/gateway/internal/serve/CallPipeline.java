package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.metaruntime.gateway.internal.manifest.Names;
import org.metaruntime.gateway.internal.pipeline.Access;
import org.metaruntime.gateway.internal.pipeline.CallTracer;
import org.metaruntime.gateway.internal.pipeline.TraceHeaders;
import org.metaruntime.gateway.internal.rpc.Dispatcher;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.RpcException;
import org.metaruntime.gateway.spi.Principal;

/**
 * The one path of every {@code tools/call}, a client's (any transport) or a pod's ({@code __mcp_meta_call__}): the
 * principal (the session's, or for a pod's call its outer call's), then the stages in order — resolve profile,
 * resolve tool, authorize, rate limit, validate arguments, check — then the dispatch (the gateway's own tool, a
 * client's call, a nested call) and, once answered, the record. A stage runs only when every stage before it passed.
 * Thread-safe.
 */
final class CallPipeline implements PodBackend.PodCallHandler {

    private final List<CallStage> stages;
    private final ToolCalls clientCalls;
    private final NestedCalls nestedCalls;
    private final Supplier<ObjectNode> status;
    private final CallTracer tracer;
    private final RecordCall record;
    private final Access access;
    private final LongSupplier nanoClock;
    private final AtomicLong callIds = new AtomicLong();

    /**
     * @param stages      the stages from resolve profile to check, in order
     * @param status      the gateway's status report (the result of its own tool)
     */
    CallPipeline(List<CallStage> stages, ToolCalls clientCalls, NestedCalls nestedCalls, Supplier<ObjectNode> status,
                 CallTracer tracer, RecordCall record, Access access, LongSupplier nanoClock) {
        this.stages = List.copyOf(stages);
        this.clientCalls = clientCalls;
        this.nestedCalls = nestedCalls;
        this.status = status;
        this.tracer = tracer;
        this.record = record;
        this.access = access;
        this.nanoClock = nanoClock;
    }

    /** A client's {@code tools/call}. */
    CompletableFuture<JsonNode> client(Dispatcher.Request request) {
        long start = nanoClock.getAsLong();
        JsonNode params = request.params();
        JsonNode nameNode = params.get("name");
        if (nameNode == null || !nameNode.isTextual()) {
            throw new RpcException(JsonRpc.INVALID_PARAMS, "tools/call needs params.name, the tool's name");
        }
        PipelineCall call = new PipelineCall(PipelineCall.Entry.CLIENT, nextCallId(), start, request.session().caller(),
                nameNode.textValue(), params.get("arguments"), traceHeaders(params), request, null, List.of(), null);
        if (request.isModern() && params.has("requestState")) {
            // a retry of a parked call: checked like a call but for its rate (the call took its tokens when it began),
            // answered by the call it continues, and recorded once, when that call ends
            runStages(call, stage -> !(stage instanceof LimitRate));
            return clientCalls.retry(call);
        }
        admit(call);
        if (isOwn(call)) {
            return answered(call, CompletableFuture.completedFuture(StatusReport.asToolResult(status.get())));
        }
        ToolCalls.Dispatched dispatched = dispatch(call, clientCalls::dispatch);
        dispatched.outcome().whenComplete((result, error) -> record.record(call, result, error));
        return dispatched.answer();
    }

    /** A pod's {@code __mcp_meta_call__}. */
    @Override
    public CompletableFuture<JsonNode> call(String pod, JsonNode params, PodBackend.Outer outer) {
        long start = nanoClock.getAsLong();
        String target = NestedCalls.target(pod, params);
        PodBackend.CallContext parent = outer.call();
        Principal principal;
        if (parent == null || (outer.ambiguous() && !access.allowsEverything())) {
            principal = new Principal("pod:" + pod, "pod", List.of(), java.util.Map.of());
            parent = outer.ambiguous() ? null : parent;
        } else {
            principal = parent.scope().principal();
        }
        PipelineCall call = new PipelineCall(PipelineCall.Entry.NESTED, nextCallId(), start, principal, target,
                params.get("args"), traceHeaders(params), null, parent, NestedCalls.chain(params, parent), params.get("expect"));
        call.unknownPrincipal = outer.ambiguous() && !access.allowsEverything();
        admit(call);
        if (isOwn(call)) {
            return answered(call, CompletableFuture.completedFuture(StatusReport.asToolResult(status.get())));
        }
        CompletableFuture<JsonNode> answer = dispatch(call, nestedCalls::dispatch);
        answer.whenComplete((result, error) -> record.record(call, result, error));
        return answer;
    }

    /** Runs every stage; a call a stage refuses is recorded. */
    private void admit(PipelineCall call) {
        try {
            runStages(call, stage -> true);
        } catch (RpcException refused) {
            record.record(call, null, refused);
            throw refused;
        }
    }

    /** Hands the admitted {@code call} to {@code dispatcher}; a call it fails to start is recorded. */
    private <T> T dispatch(PipelineCall call, Function<PipelineCall, T> dispatcher) {
        try {
            call.dispatched = true;
            return dispatcher.apply(call);
        } catch (RuntimeException failed) {
            record.record(call, null, failed);
            throw failed;
        }
    }

    private void runStages(PipelineCall call, java.util.function.Predicate<CallStage> which) {
        try {
            for (CallStage stage : stages) {
                if (!which.test(stage)) {
                    continue;
                }
                if (call.span == null && call.route != null) {
                    startSpan(call);
                }
                stage.run(call);
            }
        } finally {
            if (call.span == null) {
                startSpan(call);
            }
        }
    }

    private void startSpan(PipelineCall call) {
        call.span = tracer.start(call.tool(), call.callId, call.incoming,
                call.outer == null ? null : call.outer.scope().span(),
                call.request == null ? null : call.request.session().httpSessionId());
    }

    private CompletableFuture<JsonNode> answered(PipelineCall call, CompletableFuture<JsonNode> answer) {
        call.dispatched = true;
        answer.whenComplete((result, error) -> record.record(call, result, error));
        return answer;
    }

    private static boolean isOwn(PipelineCall call) {
        return Names.RESERVED_POD.equals(call.route.pod());
    }

    /** The trace context in the {@code _meta} of a call's params. */
    private static TraceHeaders traceHeaders(JsonNode params) {
        JsonNode meta = params.path("_meta");
        if (!meta.isObject()) {
            return TraceHeaders.NONE;
        }
        return new TraceHeaders(meta.path("traceparent").textValue(), meta.path("tracestate").textValue(),
                meta.path("baggage").textValue());
    }

    /** A new id of a call, unique in this gateway (sent to pods as {@code _meta["mcp-meta/call"]}). */
    private String nextCallId() {
        return "c" + callIds.incrementAndGet();
    }
}
