package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import org.metaruntime.gateway.internal.rpc.Dispatcher;
import org.metaruntime.gateway.internal.rpc.Eras;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.RpcException;
import org.metaruntime.mcp.McpClientRequestHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One modern client's {@code tools/call} at a pod that asks its client for input with requests of its own
 * (elicitation, sampling, roots), across the rounds of that call. A modern client takes no requests, so each request of
 * the pod is <em>parked</em> (left unanswered) and the client's request waiting for the call is answered at once with
 * {@code input_required}: every request parked so far under a key of this call, and a {@code requestState}. The
 * client's retry answers parked requests by key and waits for the pod again; unanswered keys are asked again at once.
 *
 * <p>Time: while a client request waits, the call has its {@code callTimeout} (from the moment the pod got the call,
 * and anew from each accepted retry); beyond it the call times out (-32001) and is cancelled at the pod. While the
 * call waits for its client, that deadline is suspended and the client has {@code callTimeout} to retry; beyond it the
 * call is abandoned: each parked request gets -32001 and the call is cancelled at the pod. A result of the pod that
 * comes while the call waits for its client goes to the next valid retry; a failure (the pod exited) ends the call.
 *
 * <p>Thread-safe: each step is one change of state under the call's lock; futures are completed after it.
 */
final class BridgedCall {

    /** The client capability each request a pod may send its client needs. */
    static final Map<String, String> CAPABILITY_OF = Map.of(
            "sampling/createMessage", "sampling", "elicitation/create", "elicitation", "roots/list", "roots");

    /**
     * The longest a bridged call may live at its pod, all rounds together (each round is bounded by the pod's
     * {@code callTimeout} on the gateway's side; this bounds the call at the pod's session as a last resort).
     */
    static final Duration LIFETIME = Duration.ofHours(24);

    /** At most this many requests of one call wait for the client at once; more are answered -32603. */
    static final int MAX_PARKED = 64;

    private static final Logger log = LoggerFactory.getLogger(BridgedCall.class);

    private enum Phase { RUNNING, PARKED, DONE }

    /** A request of the pod ({@code {method, params}}) left unanswered until the client answers its key. */
    private record Parked(JsonNode request, CompletableFuture<JsonNode> answer) {
    }

    /** What a bridged call needs of the call it bridges. */
    interface Call {
        /** Ends the call's outcome with {@code error} (the outcome then comes back through {@link #outcome}). */
        void fail(Throwable error);

        /** Cancels the call at the pod ({@code notifications/cancelled}). */
        void cancel();

        /**
         * The client request now waiting for the call (null: none): its log lines go there. Called under the bridged
         * call's lock: fast, never blocks.
         */
        void waiting(Dispatcher.Request request);
    }

    private final ParkedCalls registry;
    private final String id;
    private final ToolTable.Route route;
    private final JsonNode arguments;
    private volatile String argumentsDigest;
    private final String caller;
    private final Duration callTimeout;
    private final Call call;
    private final CallScope scope;
    private final Map<String, Parked> parked = new LinkedHashMap<>();
    private Phase phase = Phase.RUNNING;
    private Dispatcher.Request waiter;
    private CompletableFuture<JsonNode> waiterAnswer;
    private Dispatcher.Request last;
    private boolean sent;
    private long round;
    private int keys;
    private final CallTimer timer;
    private String podState;
    private JsonNode outcomeResult;
    private Throwable outcomeError;
    private boolean outcomeHeld;

    /**
     * @param id        the gateway's id of the call
     * @param arguments its arguments (their digest is computed only when the call first waits for its client)
     * @param caller    the key of the caller it belongs to
     * @param scope     the scope of the call at its pod (its deadline follows the rounds)
     */
    BridgedCall(ParkedCalls registry, String id, ToolTable.Route route, JsonNode arguments, String caller,
                Duration callTimeout, Call call, CallScope scope) {
        this.registry = registry;
        this.id = id;
        this.route = route;
        this.arguments = arguments;
        this.caller = caller;
        this.callTimeout = callTimeout;
        this.call = call;
        this.scope = scope;
        this.timer = new CallTimer(this, registry::schedule);
    }

    String id() {
        return id;
    }

    ToolTable.Route route() {
        return route;
    }

    /** The digest of the call's arguments ({@link RequestStates#digest}). */
    String arguments() {
        String digest = argumentsDigest;
        if (digest == null) {
            digest = RequestStates.digest(arguments);
            argumentsDigest = digest;
        }
        return digest;
    }

    String caller() {
        return caller;
    }

    /** The client's first request: it waits for the call. Returns its answer. */
    CompletableFuture<JsonNode> begin(Dispatcher.Request request) {
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        synchronized (this) {
            waitFor(request, answer);
        }
        request.onCancel(() -> cancelledBy(request));
        return answer;
    }

    /** The pod got the call: the first request's deadline runs from now. */
    void sent() {
        synchronized (this) {
            sent = true;
            if (phase == Phase.RUNNING) {
                armDeadline(this::timedOut);
            }
        }
    }

    /** A progress notification of the pod: to the waiting request, when it asked for progress. */
    void progress(ObjectNode progress) {
        Dispatcher.Request target;
        synchronized (this) {
            target = waiter;
        }
        JsonNode token = target == null ? null : target.progressToken();
        if (token != null) {
            ObjectNode out = progress.deepCopy();
            out.set("progressToken", token);
            target.session().notify("notifications/progress", out, target.id());
        }
    }

    /**
     * A request of the pod to its client during the call. Parked when the client declared its capability (in the
     * waiting request, else the last one); otherwise the call fails with -32021 and is cancelled at the pod, and the
     * pod is answered -32601. A legacy pod's request is parked under a key of this call; an input request of a modern
     * pod's {@code input_required} round is parked under the pod's own key as the pod sent it, and the client is
     * answered once every request of that round is parked, with a state wrapping the pod's {@code requestState}.
     *
     * @return the answer the pod gets
     */
    CompletableFuture<JsonNode> podAsks(ObjectNode podRequest) {
        String method = podRequest.path("method").asText();
        JsonNode round = podRequest.path("params").path("_meta").get(McpClientRequestHandler.INPUT_ROUND_META_KEY);
        boolean podRound = round != null && round.path("key").isTextual() && round.path("request").isObject();
        String capability = CAPABILITY_OF.get(method);
        try {
            arguments();
        } catch (RpcException noCanonicalForm) {
            call.fail(noCanonicalForm);
            call.cancel();
            return refuse(method, null);
        }
        CompletableFuture<JsonNode> waiting = null;
        JsonNode inputRequired = null;
        Parked entry;
        synchronized (this) {
            Dispatcher.Request asker = waiter != null ? waiter : last;
            if (phase == Phase.DONE || capability == null || asker == null || !asker.clientDeclares(capability)) {
                entry = null;
            } else if (parked.size() >= MAX_PARKED) {
                return CompletableFuture.failedFuture(new RpcException(JsonRpc.INTERNAL_ERROR, "pod " + route.pod() + " tool "
                        + route.tool() + ": more than " + MAX_PARKED + " requests wait for the client's input"));
            } else if (podRound && !parked.containsKey(round.get("key").textValue())) {
                entry = new Parked(round.get("request").deepCopy(), new CompletableFuture<>());
                parked.put(round.get("key").textValue(), entry);
                JsonNode state = round.get("requestState");
                podState = state == null || state.isNull() ? null : state.isTextual() ? state.textValue() : JsonRpc.write(state);
                if (phase == Phase.RUNNING && roundParked(round.get("keys"))) {
                    waiting = waiterAnswer;
                    inputRequired = park();
                }
            } else {
                ObjectNode request = JsonRpc.NODES.objectNode().put("method", method);
                request.set("params", withoutMeta(podRequest.get("params")));
                entry = new Parked(request, new CompletableFuture<>());
                parked.put("q" + (++keys), entry);
                if (phase == Phase.RUNNING) {
                    waiting = waiterAnswer;
                    inputRequired = park();
                }
            }
        }
        if (entry == null) {
            return refuse(method, capability);
        }
        if (waiting != null) {
            waiting.complete(inputRequired);
        }
        return entry.answer();
    }

    /** The pod cannot be asked: the call fails with -32021 (when a capability is missing) and the pod gets -32601. */
    private CompletableFuture<JsonNode> refuse(String method, String capability) {
        boolean done;
        synchronized (this) {
            done = phase == Phase.DONE;
        }
        if (!done && capability != null) {
            ObjectNode data = JsonRpc.NODES.objectNode();
            data.putObject("requiredCapabilities").putObject(capability);
            call.fail(ToolCalls.failure(route, Eras.MISSING_CLIENT_CAPABILITY, "the call needs the client capability "
                    + capability + ", which the request did not declare", data));
            call.cancel();
        }
        return CompletableFuture.failedFuture(new RpcException(JsonRpc.METHOD_NOT_FOUND, "pod " + route.pod() + " tool "
                + route.tool() + ": " + method + " is not forwarded to this " + Eras.MODERN + " client"));
    }

    /**
     * The call's outcome, mapped: to the waiting request. While none waits, a result (or a missing capability) is kept
     * for the next valid retry; a failure (the pod exited, ...) ends the call, so that its state is no longer valid.
     */
    void outcome(JsonNode result, Throwable error) {
        CompletableFuture<JsonNode> target;
        List<Parked> left;
        synchronized (this) {
            if (phase == Phase.DONE) {
                return;
            }
            if (phase == Phase.PARKED && (error == null
                    || error instanceof RpcException rpc && rpc.code() == Eras.MISSING_CLIENT_CAPABILITY)) {
                outcomeResult = result;
                outcomeError = error;
                outcomeHeld = true;
                return;
            }
            target = waiterAnswer;
            left = finish();
        }
        if (target == null) {
            log.info("pod {} tool {}: call {} ended while it waited for its client's input ({})", route.pod(), route.tool(), id,
                    error == null ? "a result" : error.getMessage());
        }
        end(left, "the call has ended");
        if (target != null) {
            complete(target, result, error);
        }
    }

    /**
     * A valid retry of round {@code round}: answers the parked requests whose keys {@code inputResponses} holds, then
     * waits for the call again, or is answered at once (the outcome already came, or parked requests are unanswered).
     *
     * @throws RpcException -32602, nothing changed, when the call does not wait for that round's retry
     */
    CompletableFuture<JsonNode> retry(Dispatcher.Request request, long round, JsonNode inputResponses) {
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        List<CompletableFuture<JsonNode>> answered = new ArrayList<>();
        List<JsonNode> values = new ArrayList<>();
        List<Parked> left = List.of();
        boolean held;
        JsonNode inputRequired = null;
        JsonNode result;
        Throwable error;
        synchronized (this) {
            if (phase != Phase.PARKED || round != this.round) {
                throw RequestStates.invalid("requestState was used already, or its call no longer waits for it");
            }
            this.round++;
            timer.cancel();
            last = request;
            held = outcomeHeld;
            result = outcomeResult;
            error = outcomeError;
            if (held) {
                left = finish();
            } else {
                if (inputResponses != null && inputResponses.isObject()) {
                    for (Iterator<Map.Entry<String, JsonNode>> it = inputResponses.fields(); it.hasNext(); ) {
                        Map.Entry<String, JsonNode> response = it.next();
                        Parked entry = parked.remove(response.getKey());
                        if (entry != null) {
                            answered.add(entry.answer());
                            values.add(response.getValue());
                        }
                    }
                }
                if (parked.isEmpty()) {
                    waitFor(request, answer);
                } else {
                    inputRequired = park();
                }
            }
        }
        if (held) {
            end(left, "the call has ended");
            complete(answer, result, error);
            return answer;
        }
        if (inputRequired != null) {
            answer.complete(inputRequired);
        } else {
            request.onCancel(() -> cancelledBy(request));
        }
        for (int i = 0; i < answered.size(); i++) {
            answered.get(i).complete(values.get(i));
        }
        return answer;
    }

    /** Whether every key of a modern pod's round ({@code keys}, a JSON array) is parked. Under the lock. */
    private boolean roundParked(JsonNode keys) {
        if (keys == null || !keys.isArray()) {
            return true;
        }
        for (JsonNode key : keys) {
            if (!parked.containsKey(key.asText())) {
                return false;
            }
        }
        return true;
    }

    /** The {@code requestState} of the modern pod's round the call waits for (null: none, or a legacy pod). */
    synchronized String podState() {
        return podState;
    }

    /** Ends the call now (the gateway stops): parked requests fail, the call is cancelled at the pod. */
    void abandon(String reason) {
        List<Parked> left;
        synchronized (this) {
            if (phase == Phase.DONE) {
                return;
            }
            left = finish();
        }
        call.fail(new PodBackend.PodFailure(PodBackend.PodFailure.Kind.CANCELLED, reason, OptionalInt.empty(), ""));
        call.cancel();
        end(left, reason);
    }

    /** {@code request} waits for the call now, with its own deadline once the pod has the call. Under the lock. */
    private void waitFor(Dispatcher.Request request, CompletableFuture<JsonNode> answer) {
        phase = Phase.RUNNING;
        waiter = request;
        waiterAnswer = answer;
        last = request;
        call.waiting(request);
        if (sent) {
            armDeadline(this::timedOut);
        }
    }

    /**
     * Runs {@code action} after {@code callTimeout} unless re-armed or cancelled first; the pod-to-pod calls the pod
     * makes from now on get no later deadline. Under the lock.
     */
    private void armDeadline(Runnable action) {
        scope.restart(callTimeout);
        timer.arm(callTimeout, action);
    }

    /** The call waits for its client: the input_required answer of this round. Under the lock. */
    private JsonNode park() {
        phase = Phase.PARKED;
        waiter = null;
        waiterAnswer = null;
        call.waiting(null);
        armDeadline(this::abandoned);
        registry.parked(this);
        ObjectNode out = JsonRpc.NODES.objectNode().put("resultType", "input_required");
        ObjectNode requests = out.putObject("inputRequests");
        parked.forEach((key, entry) -> requests.set(key, entry.request()));
        out.put("requestState", registry.seal(this, round, callTimeout, podState));
        return out;
    }

    /** Marks the call done and forgets it; returns the requests still parked. Under the lock. */
    private List<Parked> finish() {
        phase = Phase.DONE;
        waiter = null;
        waiterAnswer = null;
        call.waiting(null);
        timer.cancel();
        registry.ended(this);
        List<Parked> left = List.copyOf(parked.values());
        parked.clear();
        return left;
    }

    /** The client cancelled {@code request}: when it is the one waiting, the call is cancelled at the pod. */
    private void cancelledBy(Dispatcher.Request request) {
        synchronized (this) {
            if (waiter != request) {
                return;
            }
        }
        call.cancel();
    }

    /** The waiting request's deadline passed. */
    private void timedOut() {
        call.fail(new PodBackend.PodFailure(PodBackend.PodFailure.Kind.TIMEOUT, "timed out", OptionalInt.empty(), ""));
        call.cancel();
    }

    /** No valid retry came in time: the parked requests get -32001 and the call is cancelled at the pod. */
    private void abandoned() {
        List<Parked> left;
        synchronized (this) {
            if (phase != Phase.PARKED) {
                return;
            }
            left = finish();
        }
        String reason = "the client did not answer within " + callTimeout.toMillis() + " ms: the call was abandoned";
        log.info("pod {} tool {}: call {} abandoned: {} request(s) for the client's input were not answered within {} ms",
                route.pod(), route.tool(), id, left.size(), callTimeout.toMillis());
        call.fail(new PodBackend.PodFailure(PodBackend.PodFailure.Kind.TIMEOUT, reason, OptionalInt.empty(), ""));
        call.cancel(); // before the answers: a pod that goes on when its requests fail must not finish the call first
        for (Parked entry : left) {
            entry.answer().completeExceptionally(new RpcException(JsonRpc.TIMEOUT, reason));
        }
    }

    private static void end(List<Parked> left, String reason) {
        for (Parked entry : left) {
            entry.answer().completeExceptionally(new RpcException(JsonRpc.INTERNAL_ERROR, reason));
        }
    }

    private static void complete(CompletableFuture<JsonNode> target, JsonNode result, Throwable error) {
        if (error != null) {
            target.completeExceptionally(error);
        } else {
            target.complete(result);
        }
    }

    private static JsonNode withoutMeta(JsonNode params) {
        if (params == null || !params.isObject()) {
            return JsonRpc.NODES.objectNode();
        }
        ObjectNode copy = ((ObjectNode) params).deepCopy();
        copy.remove("_meta");
        return copy;
    }
}
