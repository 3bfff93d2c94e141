package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.gateway.internal.rpc.ClientSession;
import org.metaruntime.gateway.internal.rpc.Dispatcher;
import org.metaruntime.gateway.internal.rpc.Eras;
import org.metaruntime.gateway.internal.rpc.LogLevel;
import org.metaruntime.gateway.internal.rpc.Principals;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.RpcException;
import org.metaruntime.supervisor.InFlight;
import org.metaruntime.supervisor.internal.Failures;

/**
 * The dispatch of a client's {@code tools/call} (the {@link CallPipeline}'s stage 8 for client calls): starts the call
 * at the pod with the client's progress token and server-to-client requests wired to the calling session, cancels it
 * when the client does, and maps failures to the gateway's error codes. A modern client's call is bridged
 * ({@link BridgedCall}): the pod's requests to the client become {@code input_required} rounds, and a request with a
 * {@code requestState} is the retry of such a call ({@link ParkedCalls}). Thread-safe.
 */
final class ToolCalls {

    /** How long a client has to answer a pod's sampling, elicitation or roots request. */
    private static final Duration CLIENT_REQUEST_TIMEOUT = Duration.ofMinutes(5);

    private final ToolTable table;
    private final PodBackend backend;
    private final Map<String, LogSink> logSinks = new ConcurrentHashMap<>();
    private final ParkedCalls parked;
    private final java.util.function.LongSupplier nanoClock;

    /** Where the log lines of a modern request's call go, from which level. */
    private record LogSink(LogLevel level, Consumer<ObjectNode> send) {
    }

    /**
     * What a dispatched call answers: {@code answer} goes to the client now (for a bridged call, its first round),
     * {@code outcome} is how the call ended (the same future unless the call is bridged).
     */
    record Dispatched(CompletableFuture<JsonNode> answer, CompletableFuture<JsonNode> outcome) {
    }

    /**
     * @param parked    the modern calls waiting for their client's input, which retries reach
     * @param nanoClock the gateway's monotonic clock of calls, in nanoseconds (their deadlines)
     */
    ToolCalls(ToolTable table, PodBackend backend, ParkedCalls parked, java.util.function.LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.parked = parked;
        this.table = table;
        this.backend = backend;
    }

    /** A modern client's retry of a parked call, once the pipeline checked it. */
    CompletableFuture<JsonNode> retry(PipelineCall call) {
        return parked.retry(call.request, call.route, call.checkedArguments);
    }

    Dispatched dispatch(PipelineCall pipelineCall) {
        Dispatcher.Request request = pipelineCall.request;
        ToolTable.Route route = pipelineCall.route;
        JsonNode arguments = pipelineCall.checkedArguments;
        PodManifest manifest = table.catalog().pod(route.pod()).orElseThrow(() -> ResolveTool.unknownTool(pipelineCall.name));
        ClientSession session = request.session();
        JsonNode token = request.progressToken();
        Duration timeout = manifest.callTimeout();
        String callId = pipelineCall.callId;
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        DeferredCall call = new DeferredCall();
        CallScope scope = new CallScope(List.of(route.chainName()), Long.MAX_VALUE, pipelineCall.principal, pipelineCall.span,
                nanoClock);
        BridgedCall bridged = null;
        CompletableFuture<JsonNode> firstRound = null;
        PodBackend.CallContext context;
        if (request.isModern()) {
            bridged = new BridgedCall(parked, callId, route, arguments, Principals.key(session.caller()), timeout,
                    new Bridging(callId, answer, call), scope);
            scope.onStart(bridged::sent);
            context = new PodBackend.CallContext(callId, BridgedCall.LIFETIME, token == null ? null : bridged::progress,
                    bridged::podAsks, scope, ModernPods.callMeta(request));
            firstRound = bridged.begin(request);
        } else {
            context = new PodBackend.CallContext(callId, timeout,
                    token == null ? null : progress -> {
                        ObjectNode out = progress.deepCopy();
                        out.set("progressToken", token);
                        session.notify("notifications/progress", out, request.id());
                    },
                    podRequest -> clientRequest(session, request.id(), route, podRequest), scope,
                    ModernPods.callMeta(request));
        }
        call.attach(backend.pod(route.pod()).call(route.tool(), arguments, context));
        if (bridged == null) {
            request.onCancel(call::cancel);
        }
        call.result().whenComplete((result, error) -> {
            logSinks.remove(callId);
            if (error != null) {
                answer.completeExceptionally(error);
            } else if (request.isModern() && "task".equals(result.path("resultType").asText())) {
                answer.complete(TaskRequests.namespaced(parked.states().owner(), route.pod(), result));
            } else {
                answer.complete(result);
            }
        });
        CompletableFuture<JsonNode> outcome = answer.handle((result, error) -> {
            if (error == null) {
                return result;
            }
            if (cancelled(error)) {
                pipelineCall.cancelled = true;
            }
            throw map(route, timeout, error);
        });
        if (bridged == null) {
            return new Dispatched(outcome, outcome);
        }
        BridgedCall b = bridged;
        outcome.whenComplete((result, error) -> b.outcome(result, error == null ? null
                : Failures.unwrap(error)));
        return new Dispatched(firstRound, outcome);
    }

    /** Whether {@code error} ended a call by a cancel. */
    static boolean cancelled(Throwable error) {
        Throwable cause = Failures.unwrap(error);
        return cause instanceof java.util.concurrent.CancellationException
                || cause instanceof PodBackend.PodFailure failure && failure.kind() == PodBackend.PodFailure.Kind.CANCELLED;
    }

    /** What a bridged call does to the call it bridges: fails its outcome, cancels it, points its log lines. */
    private final class Bridging implements BridgedCall.Call {
        private final String callId;
        private final CompletableFuture<JsonNode> answer;
        private final InFlight<JsonNode> call;

        Bridging(String callId, CompletableFuture<JsonNode> answer, InFlight<JsonNode> call) {
            this.callId = callId;
            this.answer = answer;
            this.call = call;
        }

        @Override
        public void fail(Throwable error) {
            answer.completeExceptionally(error);
        }

        @Override
        public void cancel() {
            call.cancel();
        }

        @Override
        public void waiting(Dispatcher.Request request) {
            LogLevel level = request == null ? null : request.envelope().logLevel();
            if (level == null) {
                logSinks.remove(callId);
            } else {
                logSinks.put(callId, new LogSink(level, line -> request.session().notify("notifications/message", line, request.id())));
            }
        }
    }

    /**
     * A log line of a pod attributed to its call {@code callId}: sent to the modern client whose request carried a log
     * level, at or above that level, on that request's stream; false when no such request is in flight.
     */
    boolean logToCall(String callId, LogLevel level, ObjectNode line) {
        LogSink sink = callId == null ? null : logSinks.get(callId);
        if (sink == null) {
            return false;
        }
        if (level.compareTo(sink.level()) >= 0) {
            sink.send().accept(line);
        }
        return true;
    }

    private CompletableFuture<JsonNode> clientRequest(ClientSession session, JsonNode callId, ToolTable.Route route,
                                                      ObjectNode podRequest) {
        String method = podRequest.path("method").asText();
        String capability = BridgedCall.CAPABILITY_OF.get(method);
        if (capability == null || !session.hasCapability(capability)) {
            return CompletableFuture.failedFuture(new RpcException(JsonRpc.METHOD_NOT_FOUND, "pod " + route.pod() + " tool "
                    + route.tool() + ": the client did not declare the " + (capability == null ? method : capability) + " capability"));
        }
        return session.request(method, ModernPods.clientParams(podRequest.get("params")), CLIENT_REQUEST_TIMEOUT, callId);
    }

    /** A failed call to {@code route} bounded by {@code timeout}, as the RPC error its caller gets. */
    static RpcException map(ToolTable.Route route, Duration timeout, Throwable error) {
        Throwable cause = Failures.unwrap(error);
        if (cause instanceof RpcException rpc) {
            return rpc;
        }
        if (!(cause instanceof PodBackend.PodFailure failure)) {
            return failure(route, JsonRpc.INTERNAL_ERROR, "the call failed: " + cause, null);
        }
        ObjectNode data = JsonRpc.NODES.objectNode();
        failure.exitCode().ifPresent(code -> data.put("exitCode", code));
        if (!failure.stderrTail().isEmpty()) {
            data.put("stderrTail", failure.stderrTail());
        }
        switch (failure.kind()) {
            case TIMEOUT:
                data.put("timeoutMs", timeout.toMillis());
                return failure(route, failure.rpcCode(), "the call timed out after " + timeout.toMillis() + " ms", data);
            case UNAVAILABLE:
                return failure(route, failure.rpcCode(), "the pod is not available: " + failure.getMessage(), data);
            case START_FAILED:
                return failure(route, failure.rpcCode(), "the pod failed to start: " + failure.getMessage(), data);
            case UNKNOWN_TOOL:
            case INVALID_ARGUMENTS:
                return failure(route, failure.rpcCode(), failure.getMessage(), data);
            case ERROR_ANSWER:
                if (failure.errorData() != null) {
                    data.set("podError", failure.errorData());
                    JsonNode required = failure.errorData().get("requiredCapabilities");
                    if (failure.errorCode() == Eras.MISSING_CLIENT_CAPABILITY && required != null) {
                        data.set("requiredCapabilities", required); // a modern pod's input request the client cannot answer
                    }
                }
                return failure(route, failure.rpcCode(), failure.getMessage(), data).asPodAnswer();
            case CANCELLED:
                return failure(route, failure.rpcCode(), "the call was cancelled", data);
            default:
                return failure(route, failure.rpcCode(), "the call failed: " + failure.getMessage(), data);
        }
    }

    /** An RPC error naming the route's pod and tool. */
    static RpcException failure(ToolTable.Route route, int code, String message, ObjectNode data) {
        ObjectNode d = data == null ? JsonRpc.NODES.objectNode() : data;
        d.put("pod", route.pod()).put("tool", route.tool());
        return new RpcException(code, "pod " + route.pod() + " tool " + route.tool() + ": " + message, d);
    }
}
